package desk

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/askbridge/askbridge/internal/answertoken"
	"github.com/askbridge/askbridge/permission"
)

// TapPath is where a notification's answer button posts, followed by its
// answer token (answertoken): POST {public URL}/tap/{token}.
const TapPath = "/tap/"

// errNotTappable: a token whose set no longer asks what it was minted
// for (it moved on to follow-ups, or the option is not there).
var errNotTappable = errors.New("not a question a button answers")

// tapper is who answers by a notification's button, to the board's gate:
// the button's route, its signed one-time token the credential.
var tapper = permission.By{Route: permission.RouteTap, Proof: permission.ProofToken, Source: permission.SourceNotification}

// tap answers a set with the option its token names. It needs no desk
// token: the signed, one-time token is the credential. The answer goes
// through the board like the desk's own (Progress), recorded as a
// notification's (SourceNotification), so the editor's copy is withdrawn
// and a recording replays it.
func (s *Server) tap(w http.ResponseWriter, r *http.Request) {
	var set, label string
	done := false
	_, err := s.opts.Taps.Redeem(r.PathValue("token"), func(c answertoken.Claim) error {
		set = c.Set
		p, ok := s.board.Get(c.Set)
		if !ok {
			return permission.ErrUnknown
		}
		if p.State != permission.StatePending {
			return permission.ErrResolved
		}
		if err := permission.Gate(p, tapper); err != nil {
			return err // an approval: a notification never approves
		}
		if p.Step != 0 || len(p.Asking) != 1 || c.Option >= len(p.Asking[0].Question.Options) {
			return errNotTappable
		}
		label = p.Asking[0].Question.Options[c.Option].Label
		var err error
		done, err = s.board.ProgressBy(c.Set, 0, []permission.Answer{{Labels: []string{label}}}, tapper)
		return err
	})
	switch {
	case errors.Is(err, answertoken.ErrForged):
		s.logger.Warn("desk: a notification button with a token askbridge did not sign was refused")
		refuse(w, http.StatusForbidden, "this answer button's token is not valid")
	case errors.Is(err, answertoken.ErrSpent):
		refuse(w, http.StatusGone, "this answer button was used already")
	case errors.Is(err, permission.ErrNeverApproves):
		s.logger.Warn("desk: a notification button tried to answer an approval; refused", "id", set)
		refuse(w, http.StatusConflict, fmt.Sprintf("%s is an approval: %v", set, err))
	case errors.Is(err, errNotTappable):
		writeError(w, http.StatusConflict, fmt.Sprintf("question %s asks something else now: answer it at the desk", set))
	case err != nil: // answered elsewhere, cancelled or timed out since: boardError says which
		s.boardError(w, set, err)
	default:
		msg := fmt.Sprintf("Answered %q", label)
		if !done {
			msg += "; its follow-up questions wait at the desk"
		}
		s.logger.Info("desk: question answered from a notification's button", "id", set, "done", done)
		writeJSON(w, http.StatusOK, taskAnswered{Success: true, Done: done, Message: msg})
	}
}
