package mcpask

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rawPost posts one JSON-RPC message to url in session sid (none when
// empty) with ctx, as a host that speaks MCP over HTTP without the SDK.
func rawPost(ctx context.Context, url, token, sid, body string) (*http.Response, error) {
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

// A host whose HTTP stream for a tool call is dropped (the connection
// closes) without notifications/cancelled has stopped waiting as surely as
// one that says so: askbridge is told, so the question stays answerable
// and its answer reaches the model later. (Before, on the 2025 protocol
// the call went on and its answer was written to a stream nobody read.)
func TestHTTPDroppedStreamTellsAskbridgeTheHostStoppedWaiting(t *testing.T) {
	asked := make(chan struct{}, 1)
	f := startFakeBridge(t, func(ctx context.Context, _ *jsonrpc2.Conn, _ askParams) (any, error) {
		asked <- struct{}{}
		<-ctx.Done()
		return nil, ctx.Err()
	})
	s := newHTTP(t, f.path)
	url, token, err := s.Add("tag-1")
	require.NoError(t, err)
	bound, cancelBound := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancelBound()
	resp, err := rawPost(bound, url, token, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
	require.NoError(t, err)
	resp.Body.Close()
	sid := resp.Header.Get("Mcp-Session-Id")
	require.NotEmpty(t, sid)
	resp, err = rawPost(bound, url, token, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	require.NoError(t, err)
	resp.Body.Close()

	drop, dropNow := context.WithCancel(bound)
	done := make(chan struct{})
	go func() {
		defer close(done)
		resp, err := rawPost(drop, url, token, sid, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ask_user_question","arguments":`+dbQuestion+`}}`)
		if err == nil {
			resp.Body.Close()
		}
	}()
	select {
	case <-asked:
	case <-time.After(10 * time.Second):
		t.Fatal("never asked")
	}
	dropNow() // the connection closes; no notifications/cancelled is sent
	<-done
	select {
	case <-f.gone:
	case <-time.After(5 * time.Second):
		t.Fatal("the call went on after its stream was dropped: an answer would be written to nobody")
	}
	assert.Len(t, f.stoppedWaiting(), 1)
}
