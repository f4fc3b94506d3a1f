package desk

import (
	"fmt"
	"net/http"
	"time"

	"github.com/askbridge/askbridge/permission"
)

// HoldFor is how long an interaction on the desk keeps a set from timing
// out (--question-timeout): long enough to read a question and type a
// sentence. The page holds again while the user goes on, at most every
// 10 s, so an active user is never timed out and an abandoned tab lets
// the set expire a minute later.
const HoldFor = time.Minute

// holdSlack: a hold that would move the deadline by less than this is not
// made, so that a page or a script holding in a loop does not flood the
// event stream with question.held.
const holdSlack = 5 * time.Second

// hold: POST /question/{id}/hold. Someone is answering set id on the desk;
// keep it open for HoldFor from now. It answers the set's deadline.
func (s *Server) hold(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	p, ok := s.board.Get(id)
	switch {
	case !ok:
		writeError(w, http.StatusNotFound, fmt.Sprintf("no question %q", id))
		return
	case p.State != permission.StatePending:
		s.settled(w, p)
		return
	case p.Deadline == nil:
		writeError(w, http.StatusUnprocessableEntity, fmt.Sprintf("question %s has no deadline (askbridge runs without --question-timeout): there is nothing to hold", id))
		return
	}
	deadline := *p.Deadline
	if time.Until(deadline) < HoldFor-holdSlack {
		d, err := s.board.Hold(id, HoldFor)
		if err != nil {
			s.boardError(w, id, err)
			return
		}
		if d.After(deadline) {
			s.logger.Debug("desk: question held", "id", id, "until", d)
		}
		deadline = d
	}
	writeJSON(w, http.StatusOK, held{ID: id, Deadline: deadline, RemainingMs: remainingMs(deadline)})
}

// remainingMs is the time left until deadline, for a page whose clock is
// not the server's (a phone on --desk-allow-remote).
func remainingMs(deadline time.Time) int64 {
	return max(0, time.Until(deadline).Milliseconds())
}

// settled refuses to act on p, which is no longer pending: 410 Gone when it
// timed out (the agent went on without the user; an answer now would be
// lost, so it is refused loudly), 409 Conflict otherwise.
func (s *Server) settled(w http.ResponseWriter, p permission.Pending) {
	if !timedOut(p) {
		writeError(w, http.StatusConflict, fmt.Sprintf("question %s is %s already", p.ID, p.State))
		return
	}
	at := ""
	if p.Deadline != nil {
		at = " at " + p.Deadline.Format("15:04:05 MST")
	}
	went := "without an answer"
	if p.State == permission.StateAnswered {
		went = "with the recommended answers (--on-timeout recommended)"
	}
	body := gone{httpError: httpError{Error: fmt.Sprintf("question %s timed out%s; the agent went on %s", p.ID, at, went), Status: http.StatusGone},
		State: p.State, Deadline: p.Deadline}
	s.logger.Info("desk: a late answer refused", "id", p.ID)
	writeJSON(w, http.StatusGone, body)
}

// timedOut says whether p was ended by --question-timeout: cancelled as
// timed out, or answered with the recommended options in its place.
func timedOut(p permission.Pending) bool {
	return p.State == permission.StateTimeout ||
		(p.State != permission.StatePending && p.Result != nil && p.Result.Source == permission.SourceTimeout)
}

// held is the hold route's reply.
type held struct {
	ID          string    `json:"id"`
	Deadline    time.Time `json:"deadline"`
	RemainingMs int64     `json:"remainingMs"`
}

// gone is the 410 a late answer gets.
type gone struct {
	httpError
	State    string     `json:"state"`
	Deadline *time.Time `json:"deadline,omitempty"`
}
