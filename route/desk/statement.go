package desk

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"time"

	"github.com/askbridge/askbridge/internal/decisions"
	"github.com/askbridge/askbridge/permission"
)

// statement is what approving set p with answers (and a denial's reason)
// applies, as decisions.Statement says, by device dev at at with nonce:
// the approval's tool call as the card shows it (title, kind, and its
// rawInput by digest),
// the options picked, where the set comes from (Pending.Origin).
func (s *Server) statement(p permission.Pending, dev string, answers [][]string, reason string, at time.Time, nonce string) (decisions.Statement, error) {
	if p.Approval == nil {
		return decisions.Statement{}, errors.New("not an approval")
	}
	st := decisions.Statement{Set: p.ID, Step: p.Step, Device: dev, At: at, Nonce: nonce, Reason: reason}
	if reason != "" {
		if typed, err := permission.Typed(reason); err == nil {
			st.Reason = typed // as the board applies it (By.check)
		}
	}
	var tc struct {
		Title    string          `json:"title"`
		Kind     string          `json:"kind"`
		RawInput json.RawMessage `json:"rawInput"`
	}
	json.Unmarshal(p.Approval.ToolCall, &tc)
	st.Title, st.Kind, st.Arguments = tc.Title, tc.Kind, decisions.Digest(tc.RawInput)
	inst, cwd := s.origin(p)
	if inst != nil {
		st.Agent, st.Host = inst.Agent, inst.Host
	}
	st.CWD = cwd
	for _, vals := range answers {
		for _, v := range vals {
			o, ok := p.Approval.Option(v)
			if !ok {
				for _, x := range p.Approval.Options { // a nameless option, by its id
					if x.OptionID == v {
						o, ok = x, true
					}
				}
			}
			if !ok {
				return st, errors.New("the answer is not one of the approval's options")
			}
			st.Options = append(st.Options, decisions.Picked{Kind: string(o.Kind), Name: o.Name, OptionID: o.OptionID})
		}
	}
	return st, nil
}

// nonce is a fresh random nonce for a statement.
func nonce() string {
	b := make([]byte, 16)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
