package desk

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/askbridge/askbridge/permission"
)

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, httpError{Error: msg, Status: status})
}

// boardError maps the board's errors about set id to HTTP.
func (s *Server) boardError(w http.ResponseWriter, id string, err error) {
	if writeClaimed(w, err) {
		return
	}
	var gate *permission.GateError
	switch {
	case errors.As(err, &gate) && errors.Is(err, permission.ErrNeverApproves):
		refuse(w, http.StatusConflict, err.Error())
	case errors.As(err, &gate):
		refuse(w, http.StatusForbidden, err.Error())
	case errors.Is(err, permission.ErrNotDenial):
		writeError(w, http.StatusBadRequest, "reason: "+err.Error())
	case errors.Is(err, permission.ErrUnknown):
		writeError(w, http.StatusNotFound, fmt.Sprintf("no question %q", id))
	case errors.Is(err, permission.ErrResolved):
		// Resolved since the handler looked: say how (a timeout is 410).
		if p, ok := s.board.Get(id); ok {
			s.settled(w, p)
			return
		}
		writeError(w, http.StatusConflict, fmt.Sprintf("question %s was already answered or cancelled", id))
	case errors.Is(err, permission.ErrStale):
		writeError(w, http.StatusConflict, "this question moved on to its follow-ups: answer those (GET /question)")
	case errors.Is(err, permission.ErrNoDeadline):
		writeError(w, http.StatusUnprocessableEntity, fmt.Sprintf("question %s has no deadline", id))
	default:
		writeError(w, http.StatusInternalServerError, err.Error())
	}
}

// httpError is the body of every error the desk answers.
type httpError struct {
	Error  string `json:"error"`
	Status int    `json:"status"`
}
