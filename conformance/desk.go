package conformance

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/askbridge/askbridge/adapter"
)

// DeskLine is a line of a fixture's desk section: what the answer desk did
// (adapter.DeskResolution), and when in the client's script: After is how
// many of the client's lines had gone out. A replay gives it once those
// have gone out and its question set is pending at the desk, and holds the
// client's later lines until it has.
type DeskLine struct {
	After int `json:"after"`
	adapter.DeskResolution
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
	case d.After < 0:
		return "after must not be negative"
	case d.Session == "":
		return "no session"
	case d.Round < 1:
		return "round must be 1 or more"
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

// deskToken is a fresh token for a replay's desk.
func deskToken() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// deskPlayer gives a fixture's desk lines back over the desk's HTTP API,
// in order, each once its question set is pending and the client has sent
// the lines before it.
type deskPlayer struct {
	lines  []DeskLine
	base   func(ctx context.Context) (string, error) // the desk's address, "http://HOST:PORT/"
	token  string
	client *side
	http   http.Client
}

// pendingSet is a set as GET /question lists it.
type pendingSet struct {
	ID        string `json:"id"`
	SessionID string `json:"sessionID"`
	Round     int    `json:"round"`
	Step      int    `json:"step"`
	Questions []struct {
		Question string `json:"question"`
	} `json:"questions"`
}

func (p pendingSet) texts() []string {
	var out []string
	for _, q := range p.Questions {
		out = append(out, q.Question)
	}
	return out
}

// play gives every line, or says which could not be given and what the
// desk had pending instead.
func (d *deskPlayer) play(ctx context.Context) error {
	d.http.Timeout = 5 * time.Second
	base, err := d.base(ctx)
	if err != nil {
		return err
	}
	for i, line := range d.lines {
		var last []pendingSet
		for {
			if d.client.sentCount() >= line.After {
				if last, err = d.pending(base); err != nil {
					return fmt.Errorf("%v: %v", line, err)
				}
				if k := slices.IndexFunc(last, line.answers); k >= 0 {
					if err := d.give(base, last[k].ID, line); err != nil {
						return fmt.Errorf("%v: %v", line, err)
					}
					break
				}
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("%v never found its question set pending at the desk (the client had sent %d of the %d lines before it); pending: %s",
					line, d.client.sentCount(), line.After, describe(last))
			case <-time.After(20 * time.Millisecond):
			}
		}
		d.client.release(i + 1)
	}
	return nil
}

// answers says whether p is the set, at the step, that line answers.
func (line DeskLine) answers(p pendingSet) bool {
	return p.SessionID == line.Session && p.Round == line.Round && p.Step == line.Step && slices.Equal(p.texts(), line.Questions)
}

func describe(sets []pendingSet) string {
	if len(sets) == 0 {
		return "none"
	}
	var parts []string
	for _, p := range sets {
		parts = append(parts, fmt.Sprintf("session %s, round %d, step %d (%q)", p.SessionID, p.Round, p.Step, p.texts()))
	}
	return strings.Join(parts, "; ")
}

func (d *deskPlayer) pending(base string) ([]pendingSet, error) {
	var out []pendingSet
	body, err := d.do("GET", base+"question", nil)
	if err == nil {
		err = json.Unmarshal(body, &out)
	}
	return out, err
}

func (d *deskPlayer) give(base, id string, line DeskLine) error {
	if line.Reject {
		_, err := d.do("POST", base+"question/"+id+"/reject", nil)
		return err
	}
	body, _ := json.Marshal(map[string]any{"answers": line.Answers, "step": line.Step})
	_, err := d.do("POST", base+"question/"+id+"/reply", body)
	return err
}

func (d *deskPlayer) do(method, url string, body []byte) ([]byte, error) {
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+d.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := d.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("%s %s: %s: %s", method, strings.TrimPrefix(url, "http://"), resp.Status, bytes.TrimSpace(b))
	}
	return b, err
}
