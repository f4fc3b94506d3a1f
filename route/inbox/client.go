package inbox

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/askbridge/askbridge/internal/hubkey"
	"github.com/askbridge/askbridge/internal/sockdir"
	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route/hub"
)

// ErrNoHub is the inbox finding nothing at the hub's address.
var ErrNoHub = errors.New("no hub")

// client speaks to the hub's page API on the inbox's Unix socket
// (hub.ServeInbox): no token, no TCP; the kernel tells the hub who calls,
// and the hub must prove itself (hub.Dial: its listener this user's,
// outside this process's tree, holding the hub's key).
type client struct {
	base string // the socket's path, for messages
	http http.Client
}

func newClient(socket string) *client {
	dial := func(ctx context.Context, _, _ string) (net.Conn, error) {
		return hub.Dial(ctx, socket, hubkey.ALPNInbox)
	}
	return &client{base: socket, http: http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DialContext: dial}}}
}

// do sends body (nil: none) and returns the response's body when it is a
// 2xx; status is the response's status, 0 when the hub was not reached.
func (c *client) do(ctx context.Context, method, path string, body any) (raw []byte, status int, err error) {
	raw, status, err = c.doRaw(ctx, method, path, body)
	if err != nil {
		raw = nil
	}
	return raw, status, err
}

// doRaw is do, the body kept whatever the status.
func (c *client) doRaw(ctx context.Context, method, path string, body any) (raw []byte, status int, err error) {
	var in io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, 0, err
		}
		in = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, "http://localhost"+path, in)
	if err != nil {
		return nil, 0, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		switch {
		case ctx.Err() != nil:
			return nil, 0, ctx.Err()
		case errors.Is(err, sockdir.ErrUnsafe):
			return nil, 0, errors.Unwrap(err) // the folder's one-line reason; url.Error's wrapping says nothing more
		case errors.Is(err, hub.ErrRefused):
			return nil, 0, errors.Unwrap(err) // the one line saying why the hub was refused
		}
		return nil, 0, fmt.Errorf("%w at %s", ErrNoHub, c.base)
	}
	defer resp.Body.Close()
	raw, err = io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return nil, resp.StatusCode, err
	}
	switch {
	case resp.StatusCode/100 != 2:
		var e struct{ Error string }
		json.Unmarshal(raw, &e)
		return raw, resp.StatusCode, fmt.Errorf("%s %s: %s %s", method, path, resp.Status, e.Error)
	}
	return raw, resp.StatusCode, nil
}

// Set is a pending set as GET /question lists it (the desk's
// wirePending), with what the inbox reads of it.
type Set struct {
	ID        string          `json:"id"`
	SessionID string          `json:"sessionID"`
	Kind      permission.Kind `json:"kind"`
	Questions []Question      `json:"questions"`
	// Approval has the agent's options, their kinds; Claim the device
	// answering the set now (claim.go).
	Approval *permission.Approval `json:"approval"`
	Claim    *Claim               `json:"claim"`
	Step     int                  `json:"step"`
	CWD      string               `json:"cwd"`
	Instance *struct {
		Agent  string `json:"agent"`
		Client string `json:"client"`
		Host   string `json:"host"`
		// Uncontained is what the askbridge says of an agent that runs
		// outside its container (hub.Instance.Uncontained).
		Uncontained string `json:"uncontained"`
		// Mode is the session's mode as the agent reports it, with what
		// it runs unasked (hub.SessionMode).
		Mode *struct {
			ID      string `json:"id"`
			Name    string `json:"name"`
			Unasked string `json:"unasked"`
		} `json:"mode"`
	} `json:"instance"`
}

type Question struct {
	Question string              `json:"question"`
	Header   string              `json:"header"`
	Options  []permission.Option `json:"options"`
	Multiple bool                `json:"multiple"`
	Secret   bool                `json:"secret"`
	Custom   *bool               `json:"custom"`
	Link     string              `json:"link"` // a page to open (a sign-in's): shown in full
	Kind     string              `json:"kind"` // a registered kind's name (permission.RegisterKind)
}

// pending lists the sets waiting, and the list as the hub wrote it.
func (c *client) pending(ctx context.Context) ([]Set, json.RawMessage, error) {
	raw, _, err := c.do(ctx, "GET", "/question", nil)
	if err != nil {
		return nil, nil, err
	}
	var sets []Set
	if err := json.Unmarshal(raw, &sets); err != nil {
		return nil, nil, fmt.Errorf("GET /question: %v", err)
	}
	return sets, raw, nil
}

// reply answers step of set id; status 409 or 404 is a set answered or
// ended elsewhere meanwhile.
func (c *client) reply(ctx context.Context, id string, step int, answers [][]string, reason string) (int, error) {
	body := map[string]any{"answers": answers, "step": step}
	if reason != "" {
		body["reason"] = reason
	}
	_, status, err := c.do(ctx, "POST", "/question/"+id+"/reply", body)
	return status, err
}

// questions are the set's questions as the terminal asks them: the
// follow-ups are the hub's to ask, as the next step.
func (s Set) questions() []permission.Question {
	out := make([]permission.Question, len(s.Questions))
	for i, q := range s.Questions {
		out[i] = permission.Question{Question: q.Question, Header: q.Header, Options: q.Options, Link: q.Link,
			Kind: permission.KindFromFlags(q.Kind, q.Multiple, q.Custom != nil && !*q.Custom, q.Secret, q.Link != "")}
	}
	if s.denies() { // Other is "Deny…" there
		out[0].Kind.Fixed = false
		out[0].Question += denyHint
	}
	return out
}

// origin names where the set comes from: "agent · folder · client".
func (s Set) origin(home string) string {
	var parts []string
	if s.Instance != nil && s.Instance.Agent != "" {
		parts = append(parts, s.Instance.Agent)
	}
	if s.CWD != "" {
		cwd := s.CWD
		if home != "" && (cwd == home || strings.HasPrefix(cwd, home+"/")) {
			cwd = "~" + cwd[len(home):]
		}
		parts = append(parts, cwd)
	}
	if s.Instance != nil && s.Instance.Client != "" {
		parts = append(parts, s.Instance.Client)
	}
	return strings.Join(parts, " · ")
}

// replyOf is a terminal's result as the desk's reply takes it: one list
// per question, its labels then what was typed.
func replyOf(res permission.Result, n int) [][]string {
	out := make([][]string, n)
	for _, a := range res.Answers {
		if a.Index < 0 || a.Index >= n || a.Path != fmt.Sprintf("questions[%d]", a.Index) {
			continue
		}
		vals := append([]string(nil), a.Answer.Labels...)
		if a.Answer.Other {
			vals = append(vals, cmp.Or(a.Answer.Custom, permission.OtherWithoutText))
		}
		out[a.Index] = vals
	}
	return out
}
