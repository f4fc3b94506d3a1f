package adapter

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/internal/askwire"
	"github.com/askbridge/askbridge/internal/mcpask"
	"github.com/askbridge/askbridge/internal/testenv"
	"github.com/askbridge/askbridge/permission"
)

// mcpPost posts one JSON-RPC message to askbridge's MCP HTTP listing, as a
// host on MCP's 2025-06-18 protocol does, in MCP session sid (none when
// empty).
func mcpPost(ctx context.Context, url, token, sid, body string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, "POST", url, strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if sid != "" {
		req.Header.Set("Mcp-Session-Id", sid)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	return http.DefaultClient.Do(req)
}

// An MCP host whose HTTP stream for the ask tool is dropped (its
// connection closes) without notifications/cancelled: the card says the
// agent stopped waiting, and the answer given then reaches the session's
// next prompt. Before, the call ran on, the answer was taken and written to
// a stream nobody read, and it reached neither the tool call nor the next
// prompt.
func TestAnswerAfterTheHostDroppedItsStreamReachesTheNextPrompt(t *testing.T) {
	testenv.SkipUnderWine(t, testenv.NoUnixSockets)
	b := NewBridge(Options{Limits: permission.DefaultLimits()})
	env, err := b.Listen()
	require.NoError(t, err)
	h := &bridgeHarness{Harness: newHarness(t, func(r *relay.Relay) { b.Setup(r) }), bridge: b}
	srv := mcpask.NewHTTP(strings.TrimPrefix(env[0], askwire.SocketEnv+"="), permission.DefaultLimits(), nil)
	t.Cleanup(func() { srv.Close() })
	url, token, err := srv.Add("tag-drop")
	require.NoError(t, err)
	h.openSession(t, "s1") // turn p1 runs

	bound, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	resp, err := mcpPost(bound, url, token, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"host","version":"0"}}}`)
	require.NoError(t, err)
	resp.Body.Close()
	sid := resp.Header.Get("Mcp-Session-Id")
	resp, err = mcpPost(bound, url, token, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	require.NoError(t, err)
	resp.Body.Close()
	drop, dropNow := context.WithCancel(bound)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if resp, err := mcpPost(drop, url, token, sid, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ask_user_question","arguments":`+lateQuestion+`}}`); err == nil {
			resp.Body.Close()
		}
	}()
	req, _ := h.nextRequest(t, "session/request_permission")
	dropNow() // the connection closes; no notifications/cancelled
	<-done
	waitFor(t, "the card says the agent stopped waiting", func() bool {
		l := b.board.List()
		return len(l) == 1 && l[0].Note == NoteNextPrompt
	})

	h.answer(t, req, pick("Redis"))
	waitFor(t, "the answer is kept for the next prompt", func() bool {
		b.late.mu.Lock()
		defer b.late.mu.Unlock()
		return len(b.late.queued["s1"]) == 1
	})
	h.Agent.Send(`{"jsonrpc":"2.0","id":"p1","result":{"stopReason":"end_turn"}}`)
	got := sendPrompt(t, h, "p2", "s1", "go on")
	require.Len(t, got, 2)
	assert.Contains(t, got[0], `"Which database?"="Redis"`)
	assert.Equal(t, "go on", got[1])
}
