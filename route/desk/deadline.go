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
// event stream with question.held (permission.Board.Claim keeps it).
const holdSlack = 5 * time.Second

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

// gone is the 410 a late answer gets.
type gone struct {
	httpError
	State    permission.State `json:"state"`
	Deadline *time.Time       `json:"deadline,omitempty"`
}
