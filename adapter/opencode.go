package adapter

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/askbridge/askbridge/permission"
)

// OpenCode asks with its `question` tool, which in ACP mode only shows as a
// tool call (title "question", the questions in rawInput) and then waits
// for an answer no ACP message can carry. But `opencode acp` also runs an
// HTTP server where a pending question can be answered. askbridge starts
// OpenCode with a loopback port and a password of its own choosing, shows
// the question to the client as permission requests, and posts the answers
// to that server.

// OpenCodeServer is where askbridge reaches the OpenCode it started.
type OpenCodeServer struct {
	BaseURL  string // http://127.0.0.1:PORT
	Password string // OPENCODE_SERVER_PASSWORD; the user is "opencode"
	// FindTimeout bounds the wait for the server to list a question; zero
	// means 5s.
	FindTimeout time.Duration
}

// IsOpenCode reports whether argv runs OpenCode's ACP mode:
// `opencode acp …`, also behind a launcher such as npx.
func IsOpenCode(argv []string) bool {
	for i, a := range argv {
		base := filepath.Base(a)
		if (base == "opencode" || base == "opencode-ai") && slices.Contains(argv[i+1:], "acp") {
			return true
		}
	}
	return false
}

// PrepareOpenCode picks a free loopback port and a random password and
// returns the command with --port/--hostname appended, the environment
// that enables the question tool and sets the password, and the server.
func PrepareOpenCode(argv []string) ([]string, []string, *OpenCodeServer, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, nil, nil, fmt.Errorf("finding a free port for OpenCode's server: %w", err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	secret := make([]byte, 24)
	rand.Read(secret)
	password := hex.EncodeToString(secret)
	cmd := append(append([]string(nil), argv...), "--port", strconv.Itoa(port), "--hostname", "127.0.0.1")
	env := []string{"OPENCODE_ENABLE_QUESTION_TOOL=1", "OPENCODE_SERVER_PASSWORD=" + password}
	return cmd, env, &OpenCodeServer{BaseURL: "http://127.0.0.1:" + strconv.Itoa(port), Password: password}, nil
}

// onSessionUpdate spots OpenCode's question tool calls; the update itself
// always goes on to the client.
func (b *Bridge) onSessionUpdate(m *Message) Verdict {
	if b.opts.OpenCode == nil || !bytes.Contains(m.Raw, []byte(`"questions"`)) {
		return Pass
	}
	var p struct {
		SessionID string `json:"sessionId"`
		Update    struct {
			SessionUpdate string          `json:"sessionUpdate"`
			ToolCallID    string          `json:"toolCallId"`
			Title         string          `json:"title"`
			Status        string          `json:"status"`
			RawInput      json.RawMessage `json:"rawInput"`
		} `json:"update"`
	}
	if m.Params(&p) != nil {
		return Pass
	}
	u := p.Update
	if (u.SessionUpdate != "tool_call" && u.SessionUpdate != "tool_call_update") || u.Title != "question" ||
		(u.Status != "pending" && u.Status != "in_progress") || u.ToolCallID == "" {
		return Pass
	}
	var in struct {
		Questions []json.RawMessage `json:"questions"`
	}
	if json.Unmarshal(u.RawInput, &in) != nil || len(in.Questions) == 0 {
		return Pass
	}
	b.mu.Lock()
	if b.openCodeCalls == nil {
		b.openCodeCalls = map[string]bool{}
	}
	seen := b.openCodeCalls[u.ToolCallID]
	b.openCodeCalls[u.ToolCallID] = true
	b.mu.Unlock()
	if !seen {
		go b.answerOpenCode(p.SessionID, u.ToolCallID, bytes.Clone(u.RawInput))
	}
	return Pass
}

func (b *Bridge) answerOpenCode(session, callID string, rawInput []byte) {
	oc := b.opts.OpenCode
	dir := b.sessionCwd(session)
	ctx, done := b.begin(context.Background(), session, nil)
	defer done()
	qid, err := oc.find(ctx, dir, callID)
	if err != nil {
		b.logger.Error("OpenCode's question cannot be answered; cancelling the turn so it does not hang", "toolCallId", callID, "err", err)
		b.relay.Client.Notify("session/update", map[string]any{"sessionId": session, "update": map[string]any{
			"sessionUpdate": "tool_call_update", "toolCallId": callID, "status": "failed",
			"content": []any{map[string]any{"type": "content", "content": map[string]string{"type": "text",
				"text": "askbridge could not reach OpenCode's question server (" + err.Error() + "), so this question cannot be answered here; the turn was cancelled."}}}}})
		b.relay.Agent.Notify("session/cancel", map[string]string{"sessionId": session})
		return
	}
	ocqs, err := permission.DecodeOpenCode(rawInput)
	var qs []permission.Question
	for _, q := range ocqs {
		qs = append(qs, q.Question)
	}
	if err == nil {
		err = permission.ValidateBridged(qs, b.opts.Limits)
	}
	if err != nil {
		b.logger.Warn("rejecting an OpenCode question askbridge cannot show", "err", err)
		oc.post(context.Background(), dir, qid, "reject", nil)
		return
	}
	res, err := b.askClient(ctx, permission.Request{SessionID: session, ToolCallID: callID, Questions: qs})
	if err != nil || res.Cancelled {
		if err := oc.post(context.Background(), dir, qid, "reject", nil); err != nil {
			b.logger.Debug("rejecting OpenCode's question", "err", err)
		}
		return
	}
	if err := oc.post(context.Background(), dir, qid, "reply", map[string]any{"answers": permission.OpenCodeAnswers(len(qs), res)}); err != nil {
		b.logger.Error("posting the answers to OpenCode failed", "toolCallId", callID, "err", err)
	}
}

// find waits for the server to list the question of tool call callID.
func (oc *OpenCodeServer) find(ctx context.Context, dir, callID string) (string, error) {
	limit := oc.FindTimeout
	if limit == 0 {
		limit = 5 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	var lastErr error
	for {
		var list []struct {
			ID   string `json:"id"`
			Tool struct {
				CallID string `json:"callID"`
			} `json:"tool"`
		}
		body, err := oc.do(ctx, http.MethodGet, "/question", dir, nil)
		if err == nil {
			err = json.Unmarshal(body, &list)
		}
		if err == nil {
			for _, q := range list {
				if q.Tool.CallID == callID {
					return q.ID, nil
				}
			}
			lastErr = fmt.Errorf("it does not list a question for tool call %s", callID)
		} else {
			lastErr = err
		}
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("after %s: %w", limit, lastErr)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// post answers ("reply") or dismisses ("reject") question id.
func (oc *OpenCodeServer) post(ctx context.Context, dir, id, verb string, body any) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	_, err := oc.do(ctx, http.MethodPost, "/question/"+url.PathEscape(id)+"/"+verb, dir, body)
	return err
}

func (oc *OpenCodeServer) do(ctx context.Context, method, path, dir string, body any) ([]byte, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(b)
	}
	u := oc.BaseURL + path + "?directory=" + url.QueryEscape(dir)
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return nil, err
	}
	req.SetBasicAuth("opencode", oc.Password)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("%s %s: %s: %s", method, path, resp.Status, bytes.TrimSpace(b))
	}
	return b, nil
}
