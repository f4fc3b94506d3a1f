package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/askbridge/askbridge/adapter/record"
)

// DeskLine is a line of a fixture's desk section: what the answer desk did
// (record.DeskResolution), and when. A replay gives it once its question
// set is pending at the desk at its step, the client has sent its first
// After lines and been sent Asked requests of askbridge's own (the
// question shown in the editor, as when it was recorded), and holds the
// client's later lines until it has.
type DeskLine struct {
	After int `json:"after"` // the client's lines sent before it
	Asked int `json:"asked"` // askbridge's requests to the client before it
	record.DeskResolution
}

// deskLines reads a desk section: every field known, a session, a round,
// the questions, and an answer for each or a reject; After in order.
func deskLines(lines [][]byte) ([]DeskLine, error) {
	var out []DeskLine
	for i, line := range lines {
		var d DeskLine
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&d); err != nil {
			return nil, fmt.Errorf("line %d: %v", i+1, err)
		}
		if problem := d.check(); problem != "" {
			return nil, fmt.Errorf("line %d: %s", i+1, problem)
		}
		if i > 0 && d.After < out[i-1].After {
			return nil, fmt.Errorf("line %d: after %d comes before the line above's %d", i+1, d.After, out[i-1].After)
		}
		out = append(out, d)
	}
	return out, nil
}

func (d DeskLine) check() string {
	switch {
	case d.After < 0 || d.Asked < 0:
		return "after and asked must not be negative"
	case d.Session == "":
		return "no session"
	case d.Round < 0: // 0: a set that is no round (a sign-in outside a session)
		return "round must not be negative"
	case d.Step < 0:
		return "step must not be negative"
	case len(d.Questions) == 0:
		return "no questions"
	case d.Reject && d.Answers != nil:
		return "a reject has no answers"
	case !d.Reject && len(d.Answers) != len(d.Questions):
		return fmt.Sprintf("%d answers to %d questions (or reject)", len(d.Answers), len(d.Questions))
	}
	for i, a := range d.Answers {
		if len(a) == 0 {
			return fmt.Sprintf("answers[%d] is empty", i)
		}
	}
	return ""
}

// String names the line in errors.
func (d DeskLine) String() string {
	what := "answer"
	if d.Reject {
		what = "reject"
	}
	return fmt.Sprintf("desk %s to session %s, round %d, step %d (%q)", what, d.Session, d.Round, d.Step, d.Questions)
}
