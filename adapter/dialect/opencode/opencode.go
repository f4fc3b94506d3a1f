package opencode

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/permission"
)

// Dialect is the dialect of OpenCode, which asks with its `question` tool.
// In ACP mode that only shows as a tool call (title "question", the
// questions in rawInput) and then waits for an answer no ACP message can
// carry. But `opencode acp` also runs an HTTP server where a pending
// question can be answered. askbridge starts OpenCode with a loopback port
// and a password of its own choosing (Launch), shows the question to the
// client as permission requests, and posts the answers to that server.
type Dialect struct {
	// Server is where askbridge reaches the OpenCode it started; nil until
	// Launch (or a test) sets it, and then the dialect stays silent.
	Server *Server

	mu    sync.Mutex
	calls map[string]bool // tool calls already being answered
}

// Server is where askbridge reaches the OpenCode it started.
type Server struct {
	BaseURL  string // http://127.0.0.1:PORT
	Password string // OPENCODE_SERVER_PASSWORD; the user is "opencode"
	// FindTimeout bounds the wait for the server to list a question; zero
	// means 5s.
	FindTimeout time.Duration
}

// Name implements Dialect.
func (*Dialect) Name() string { return "opencode" }

// Hooks implements Dialect.
// Until Launch has started OpenCode's server there is nothing to answer
// on, so every other agent's session/update passes without a look.
func (d *Dialect) Hooks() []dialect.Hook {
	if d.Server == nil {
		return nil
	}
	return []dialect.Hook{{From: dialect.FromAgent, Method: acp.ClientMethodSessionUpdate, Updates: []string{"tool_call", "tool_call_update"}}}
}

// Recognise implements Launcher: `opencode acp …`, also behind a launcher
// such as npx.
func (*Dialect) Recognise(argv []string) bool {
	for i, a := range argv {
		base := filepath.Base(a)
		if (base == "opencode" || base == "opencode-ai") && slices.Contains(argv[i+1:], "acp") {
			return true
		}
	}
	return false
}

// Launch implements Launcher: it picks a free loopback port and a random
// password, appends --port/--hostname, and enables the question tool.
func (d *Dialect) Launch(argv []string) ([]string, []string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, nil, fmt.Errorf("finding a free port for OpenCode's server: %w", err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	secret := make([]byte, 24)
	rand.Read(secret)
	password := hex.EncodeToString(secret)
	cmd := append(append([]string(nil), argv...), "--port", strconv.Itoa(port), "--hostname", "127.0.0.1")
	env := []string{"OPENCODE_ENABLE_QUESTION_TOOL=1", "OPENCODE_SERVER_PASSWORD=" + password}
	d.Server = &Server{BaseURL: "http://127.0.0.1:" + strconv.Itoa(port), Password: password}
	return cmd, env, nil
}

// openCodeUpdate is the part of a session/update the dialect reads: a tool
// call's id, title, status and rawInput, in either tool call variant.
type openCodeUpdate struct {
	SessionID string `json:"sessionId"`
	Update    struct {
		SessionUpdate string          `json:"sessionUpdate"`
		ToolCallID    string          `json:"toolCallId"`
		Name          string          `json:"name"` // ACP's stable tool name, where sent
		Title         string          `json:"title"`
		Status        string          `json:"status"`
		RawInput      json.RawMessage `json:"rawInput"`
	} `json:"update"`
}

// Claim implements Dialect: it observes OpenCode's question tool calls; the
// update itself always goes on to the client.
func (d *Dialect) Claim(h dialect.Host, m *relay.Message) *dialect.Claim {
	if k := m.UpdateKind(); d.Server == nil || string(k) != "tool_call" && string(k) != "tool_call_update" || !bytes.Contains(m.Raw, []byte(`"questions"`)) {
		return nil
	}
	var p openCodeUpdate
	if m.Params(&p) != nil {
		return nil
	}
	u := p.Update
	if (u.SessionUpdate != "tool_call" && u.SessionUpdate != "tool_call_update") || !isQuestionTool(u.Name, u.Title) ||
		(u.Status != "pending" && u.Status != "in_progress") || u.ToolCallID == "" {
		return nil
	}
	var in struct {
		Questions []json.RawMessage `json:"questions"`
	}
	if json.Unmarshal(u.RawInput, &in) != nil || len(in.Questions) == 0 {
		return nil
	}
	d.mu.Lock()
	if d.calls == nil {
		d.calls = map[string]bool{}
	}
	seen := d.calls[u.ToolCallID]
	d.calls[u.ToolCallID] = true
	d.mu.Unlock()
	if seen {
		return nil
	}
	return d.claim(h, p.SessionID, u.ToolCallID, bytes.Clone(u.RawInput))
}

// errUnreachable marks a question OpenCode's server does not list.
type errUnreachable struct{ err error }

func (e errUnreachable) Error() string { return e.err.Error() }

func (d *Dialect) claim(h dialect.Host, session, callID string, rawInput []byte) *dialect.Claim {
	oc := d.Server
	dir := h.SessionCwd(session)
	var qid string
	var n int
	return &dialect.Claim{
		SessionID:  session,
		ToolCallID: callID,
		Mode:       dialect.Observe,
		Questions: func(ctx context.Context) ([]permission.Question, error) {
			var err error
			if qid, err = oc.find(ctx, dir, callID); err != nil {
				return nil, errUnreachable{err}
			}
			qs, err := decodeOpenCode(rawInput)
			if err == nil {
				err = permission.ValidateBridged(qs, h.Limits())
			}
			n = len(qs)
			return qs, err
		},
		Reply: func(ctx context.Context, o dialect.Outcome) (any, error) {
			var unreachable errUnreachable
			switch {
			case errors.As(o.Err, &unreachable):
				d.unreachable(h, session, callID, unreachable.err)
			case o.Status == dialect.TimedOut:
				// OpenCode's model reads the reply's text; a reject would
				// say the user dismissed the question.
				answers := make([][]string, n)
				for i := range answers {
					answers[i] = []string{permission.NoAnswerInTime}
				}
				if err := oc.post(ctx, dir, qid, "reply", openCodeReply{Answers: answers}); err != nil {
					h.Logger().Error("posting the timeout to OpenCode failed", "toolCallId", callID, "err", err)
				}
			case o.Status == dialect.Answered:
				if err := oc.post(ctx, dir, qid, "reply", openCodeReply{Answers: openCodeAnswers(n, o.Result)}); err != nil {
					h.Logger().Error("posting the answers to OpenCode failed", "toolCallId", callID, "err", err)
				}
			default:
				if o.Status == dialect.Invalid {
					h.Logger().Warn("rejecting an OpenCode question askbridge cannot show", "err", o.Err)
				}
				if err := oc.post(ctx, dir, qid, "reject", nil); err != nil {
					h.Logger().Debug("rejecting OpenCode's question", "err", err)
				}
			}
			return nil, nil
		},
	}
}

// unreachable tells the client why the question cannot be answered and
// cancels the turn, so that OpenCode does not wait forever.
func (d *Dialect) unreachable(h dialect.Host, session, callID string, err error) {
	h.Logger().Error("OpenCode's question cannot be answered; cancelling the turn so it does not hang", "toolCallId", callID, "err", err)
	text := "askbridge could not reach OpenCode's question server (" + err.Error() + "), so this question cannot be answered here; the turn was cancelled."
	h.Client().Notify(acp.ClientMethodSessionUpdate, acp.SessionNotification{
		SessionId: acp.SessionId(session),
		Update: acp.UpdateToolCall(acp.ToolCallId(callID), acp.WithUpdateStatus(acp.ToolCallStatusFailed),
			acp.WithUpdateContent([]acp.ToolCallContent{acp.ToolContent(acp.TextBlock(text))})),
	})
	h.Agent().Notify(acp.AgentMethodSessionCancel, acp.CancelNotification{SessionId: acp.SessionId(session)})
}

// openCodeReply is the body of OpenCode's reply route: one array per
// question of the set, in question order, typed text as an entry.
type openCodeReply struct {
	Answers [][]string `json:"answers"`
}

// decodeOpenCode reads the rawInput of OpenCode's question tool, which says
// `multiple` for multi-select.
func decodeOpenCode(rawInput []byte) ([]permission.Question, error) {
	var top map[string]any
	if err := json.Unmarshal(rawInput, &top); err != nil || top == nil {
		return nil, fmt.Errorf("rawInput: not a JSON object")
	}
	return permission.DecodeQuestions("rawInput.questions", top["questions"], "multiple")
}

// openCodeAnswers are the answers as OpenCode's reply route takes them.
func openCodeAnswers(n int, r permission.Result) [][]string {
	out := make([][]string, n)
	for i := range out {
		out[i] = []string{}
	}
	for _, a := range r.Answers {
		if a.Index < 0 || a.Index >= n {
			continue
		}
		vals := append([]string{}, a.Answer.Labels...)
		if a.Answer.Other {
			if a.Answer.Custom != "" {
				vals = append(vals, a.Answer.Custom)
			} else {
				vals = append(vals, permission.OtherWithoutText)
			}
		}
		out[a.Index] = vals
	}
	return out
}

// isQuestionTool reports whether a tool call is OpenCode's question tool:
// by the tool's name where the agent sends ACP's name member (stable since
// the schema OpenCode's newer builds follow), else by its title, which
// OpenCode 1.x sets to the tool's name.
func isQuestionTool(name, title string) bool {
	if name != "" {
		return name == "question"
	}
	return title == "question"
}
