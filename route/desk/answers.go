package desk

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"

	"github.com/askbridge/askbridge/permission"
)

// answer checks answers against the questions set id asks now and gives
// them to the board; it writes the response. A set whose picks bring
// follow-ups stays pending with those as its questions (the next step).
// The board's gate decides whether it may (permission.Gate); when the gate
// wants the user's presence, the passkey's assertion shows it (presence.go).
func (s *Server) answer(w http.ResponseWriter, r *http.Request, id, session string, step *int, answers [][]string, opencode bool, assertion json.RawMessage) {
	s.answerWhy(w, r, id, session, step, answers, opencode, assertion, "")
}

// answerWhy is answer with the reason of a denial (by's Reason), checked
// by the board: only with an approval's reject option.
func (s *Server) answerWhy(w http.ResponseWriter, r *http.Request, id, session string, step *int, answers [][]string, opencode bool, assertion json.RawMessage, reason string) {
	p, ok := s.board.Get(id)
	if !ok || (session != "" && p.SessionID != session) {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no question %q", id))
		return
	}
	if p.State != permission.StatePending {
		s.settled(w, p)
		return
	}
	if step != nil && *step != p.Step {
		s.boardError(w, id, permission.ErrStale)
		return
	}
	if len(answers) != len(p.Asking) {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("answers: want %d (one per question), got %d", len(p.Asking), len(answers)))
		return
	}
	picked, problem := s.parse(p.Asking, answers)
	if problem != "" {
		writeError(w, http.StatusBadRequest, problem)
		return
	}
	who := by(r, reason)
	who.Source = s.source(r)
	if err := permission.Gate(p, who); errors.Is(err, permission.ErrPresence) && who.Proof.Has(permission.ProofDevice) {
		// The gate wants the user's presence, which a paired device shows
		// with the passkey assertion that came with the answers.
		if who.Signed, err = s.present(r, id, p.Step, answers, reason, assertion); err != nil {
			refuse(w, http.StatusForbidden, err.Error())
			return
		}
		who.Proof |= permission.ProofPresence
	}
	done, err := s.board.ProgressBy(id, p.Step, picked, who)
	if err != nil {
		s.boardError(w, id, err)
		return
	}
	msg := "Answer recorded for " + id
	if !done {
		msg += "; its follow-up questions are asked next"
	}
	s.logger.Info("desk: question answered", "id", id, "step", p.Step, "done", done)
	if opencode {
		writeJSON(w, http.StatusOK, true)
	} else {
		writeJSON(w, http.StatusOK, taskAnswered{Success: true, Done: done, Message: msg})
	}
}

// parse reads one list of answers per question. A value that is exactly
// an option's label is that pick, whatever its length or spaces; anything
// else is typed text, cleaned and limited by permission.Typed, and a pick
// when the cleaned text is a label (refused with NoCustom otherwise).
func (s *Server) parse(asking []permission.Asked, answers [][]string) ([]permission.Answer, string) {
	var out []permission.Answer
	for i, a := range asking {
		q, vals := a.Question, answers[i]
		path := fmt.Sprintf("answers[%d]", i)
		if len(vals) == 0 {
			return nil, path + ": empty: pick an option or type an answer"
		}
		if !q.Kind.Many && len(vals) > 1 {
			return nil, fmt.Sprintf("%s: %q takes one answer", path, q.Question)
		}
		var ans permission.Answer
		for _, v := range vals {
			label, isLabel := labelOf(q, v)
			if !isLabel {
				typed, err := permission.Typed(v)
				switch {
				case err != nil:
					return nil, path + ": " + err.Error()
				case typed == "":
					return nil, path + ": an empty answer"
				}
				if label, isLabel = labelOf(q, typed); !isLabel {
					switch {
					case s.opts.NoCustom || !q.Kind.Typed():
						return nil, fmt.Sprintf("%s: %q is not an option of %q", path, typed, q.Question)
					case ans.Other:
						return nil, path + ": one typed answer per question"
					case q.Kind.Check(typed) != nil:
						return nil, path + ": " + q.Kind.Check(typed).Error()
					}
					ans.Other, ans.Custom = true, typed
					continue
				}
			}
			if !slices.Contains(ans.Labels, label) {
				ans.Labels = append(ans.Labels, label)
			}
		}
		// Picks in option order, as every other front end gives them.
		order := func(l string) int {
			return slices.IndexFunc(q.Options, func(o permission.Option) bool { return o.Label == l })
		}
		slices.SortFunc(ans.Labels, func(x, y string) int { return order(x) - order(y) })
		out = append(out, ans)
	}
	return out, ""
}

func labelOf(q permission.Question, v string) (string, bool) {
	for _, o := range q.Options {
		if o.Label == v {
			return o.Label, true
		}
	}
	return "", false
}

// taskAnswered is /api/task/answer's reply.
type taskAnswered struct {
	Success bool   `json:"success"`
	Done    bool   `json:"done"`
	Message string `json:"message"`
}
