package desk

import (
	"fmt"
	"net/http"
	"time"

	"github.com/askbridge/askbridge/permission"
)

// sessions: the sessions that asked, oldest first, for the page to load
// their history.
func (s *Server) sessions(w http.ResponseWriter, r *http.Request) {
	out := []map[string]string{}
	for _, id := range s.board.Sessions() {
		out = append(out, map[string]string{"id": id})
	}
	writeJSON(w, http.StatusOK, out)
}

// history: the rounds asked in a session, numbered, with their outcomes.
func (s *Server) history(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	sets, ok := s.board.History(id)
	if !ok {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no session %q", id))
		return
	}
	type round struct {
		Round     int               `json:"round"`
		Asked     time.Time         `json:"asked"` // when the agent asked it: the page shows the time
		Kind      permission.Kind   `json:"kind"`
		ID        string            `json:"id"`
		State     permission.State  `json:"state"`
		Source    permission.Source `json:"source,omitempty"` // where it was resolved from
		Questions []wireQuestion    `json:"questions"`
		Answers   map[string]string `json:"answers,omitempty"`
		// Instance and CWD say where the set came from (Pending.Origin),
		// the hub's sets kept from before its restart included.
		Instance *permission.Origin `json:"instance,omitempty"`
		CWD      string             `json:"cwd,omitempty"`
	}
	out := struct {
		SessionID string  `json:"sessionID"`
		Rounds    []round `json:"rounds"`
	}{SessionID: id, Rounds: []round{}}
	for _, p := range sets {
		rd := round{Round: p.Round, Asked: p.Asked, Kind: p.Kind, ID: p.ID, State: p.State, Questions: []wireQuestion{}}
		if p.Result != nil {
			rd.Source = p.Result.Source
		}
		rd.Instance, rd.CWD = s.origin(p)
		for _, q := range p.Questions {
			rd.Questions = append(rd.Questions, toWireQuestion(q, ""))
		}
		if p.Result != nil && !p.Result.Cancelled {
			rd.Answers = map[string]string{}
			for _, a := range p.Result.Answers {
				rd.Answers[a.Question.Question] = a.Answer.Text()
			}
		}
		out.Rounds = append(out.Rounds, rd)
	}
	writeJSON(w, http.StatusOK, out)
}
