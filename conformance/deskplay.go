package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"slices"
	"strings"
	"time"

	deskserver "github.com/askbridge/askbridge/route/desk"
)

// deskQuiet is how long a desk line waits for the requests of askbridge's
// own it was recorded after, once the client hears nothing more: an
// askbridge that no longer sends them still gets its answer, and shows the
// difference (or -update records it).
const deskQuiet = 2 * time.Second

// deskPlayer gives a fixture's desk lines back over the desk's HTTP API,
// in order, each when DeskLine says.
type deskPlayer struct {
	lines  []DeskLine
	base   func(ctx context.Context) (string, error) // the desk's address, "http://HOST:PORT/"
	code   func(ctx context.Context) (string, error) // a pairing code
	key    string                                    // the paired session's key (its cookie is in http's jar)
	mac    string                                    // its request key, which proves a request that changes something
	client *side
	http   http.Client
}

// pair pairs the player with the desk as a browser without a passkey
// whose user let it approve (the fixtures' desk lines answer approvals
// too): the code for a ticket, the ticket for a session.
func (d *deskPlayer) pair(ctx context.Context, base string) error {
	code, err := d.code(ctx)
	if err != nil {
		return err
	}
	d.http.Jar, _ = cookiejar.New(nil)
	body, err := d.do("POST", base+"pair/begin", []byte(`{"code":"`+code+`","name":"replay"}`))
	var begun struct{ Ticket string }
	if err == nil {
		err = json.Unmarshal(body, &begun)
	}
	if err == nil {
		body, err = d.do("POST", base+"pair/finish", []byte(`{"ticket":"`+begun.Ticket+`","name":"replay","noPasskeyApprovals":true}`))
	}
	var done struct{ Key, MAC string }
	if err == nil {
		err = json.Unmarshal(body, &done)
	}
	if err != nil {
		return fmt.Errorf("pairing with the desk: %w", err)
	}
	d.key, d.mac = done.Key, done.MAC
	return nil
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
	if err := d.pair(ctx, base); err != nil {
		return err
	}
	for i, line := range d.lines {
		var last []pendingSet
		for {
			if d.client.readyFor(line) {
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
				sent, asked := d.client.progress()
				return fmt.Errorf("%v was never given: the client had sent %d of the %d lines before it and been sent %d of askbridge's %d requests; pending at the desk: %s",
					line, sent, line.After, asked, line.Asked, describe(last))
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
	body, _ := json.Marshal(struct {
		Answers [][]string `json:"answers"`
		Step    int        `json:"step"`
	}{line.Answers, line.Step})
	_, err := d.do("POST", base+"question/"+id+"/reply", body)
	return err
}

func (d *deskPlayer) do(method, url string, body []byte) ([]byte, error) {
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("X-Askbridge-Key", d.key)
	if d.mac != "" && method != http.MethodGet {
		if err := deskserver.Sign(req, d.mac); err != nil {
			return nil, err
		}
	}
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

// The client's side of the desk lines.

// readyFor says whether the client is where it was when the desk did
// line: its earlier lines sent, askbridge's earlier requests received (or
// nothing more coming).
func (s *side) readyFor(line DeskLine) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sent >= line.After && (s.asked >= line.Asked || time.Since(s.lastGot) > deskQuiet)
}

func (s *side) progress() (sent, asked int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sent, s.asked
}

// release says the first n desk lines have been given.
func (s *side) release(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.released = n
	close(s.changed)
	s.changed = make(chan struct{})
}

// heldBy is the desk line (from 1) that line k waits for, or 0.
func (s *side) heldBy(k int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.released < len(s.holds) && s.holds[s.released] <= k {
		return s.released + 1
	}
	return 0
}
