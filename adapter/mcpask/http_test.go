package mcpask

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/askbridge/askbridge/permission"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/sourcegraph/jsonrpc2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// headerTransport adds a header to every request, as an agent does with
// the headers of an http MCP server entry.
type headerTransport struct{ name, value string }

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if h.name != "" {
		r.Header.Set(h.name, h.value)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// connectHTTP connects an MCP client to url with the given Authorization.
func connectHTTP(t *testing.T, url, auth string) (*mcp.ClientSession, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	tr := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: headerTransport{"Authorization", auth}}, MaxRetries: -1}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(ctx, tr, nil)
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

func newHTTP(t *testing.T, socket string) *HTTP {
	t.Helper()
	s := NewHTTP(socket, permission.DefaultLimits(), nil)
	t.Cleanup(func() { s.Close() })
	return s
}

// The tool over HTTP asks through the socket with the listing's tag, and
// answers as `askbridge mcp` does.
func TestHTTPAsksWithTheListingsTag(t *testing.T) {
	f := startFakeBridge(t, answering("", "Redis"))
	s := newHTTP(t, f.path)
	url, token, err := s.Add("askbridge-0123456789abcdef")
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(url, "http://127.0.0.1:"), url)
	assert.True(t, strings.HasSuffix(url, PathPrefix+"askbridge-0123456789abcdef"), url)
	assert.Len(t, token, 64)

	cs, err := connectHTTP(t, url, "Bearer "+token)
	require.NoError(t, err)
	res := callAsk(t, cs, dbQuestion)
	assert.False(t, res.IsError)
	assert.Equal(t, `"Which database?"="Redis"`, text(t, res))
	saw := f.saw()
	require.Len(t, saw, 1)
	assert.Equal(t, "askbridge-0123456789abcdef", saw[0].MCPTag)

	// An invalid set is refused before anything is asked.
	res = callAsk(t, cs, `{"questions":[]}`)
	assert.True(t, res.IsError)
	assert.Len(t, f.saw(), 1)
}

// Without the listing's token, with another listing's token, or at a path
// no listing has, every request is 401 and nothing is asked.
func TestHTTPRefusesWithoutTheToken(t *testing.T) {
	f := startFakeBridge(t, answering("", "Redis"))
	s := newHTTP(t, f.path)
	url1, token1, err := s.Add("tag-1")
	require.NoError(t, err)
	url2, token2, err := s.Add("tag-2")
	require.NoError(t, err)
	require.NotEqual(t, token1, token2)

	for name, c := range map[string]struct{ url, auth string }{
		"no token":              {url1, ""},
		"another listing's":     {url1, "Bearer " + token2},
		"not bearer":            {url1, token1},
		"a prefix of the token": {url1, "Bearer " + token1[:63]},
		"no such listing":       {strings.TrimSuffix(url1, "tag-1") + "tag-3", "Bearer " + token1},
		"the root":              {strings.TrimSuffix(url1, PathPrefix+"tag-1") + "/", "Bearer " + token1},
	} {
		t.Run(name, func(t *testing.T) {
			req, err := http.NewRequest("POST", c.url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask_user_question","arguments":`+dbQuestion+`}}`))
			require.NoError(t, err)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if c.auth != "" {
				req.Header.Set("Authorization", c.auth)
			}
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			resp.Body.Close()
			assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
			assert.Contains(t, resp.Header.Get("WWW-Authenticate"), "Bearer")
		})
	}
	_, err = connectHTTP(t, url2, "Bearer "+token1)
	assert.Error(t, err, "an MCP client with another listing's token connected")
	assert.Empty(t, f.saw(), "a request without the token asked")

	// A removed listing's token opens nothing any more.
	s.Remove("tag-2")
	_, err = connectHTTP(t, url2, "Bearer "+token2)
	assert.Error(t, err)
}

// A call whose HTTP request goes away (Copilot's timeout) has askbridge
// told the host stopped waiting, then its socket connection closed: the
// question stays answerable for a late answer.
func TestHTTPCancelledCallTellsAskbridgeTheHostStoppedWaiting(t *testing.T) {
	asked := make(chan struct{}, 1)
	f := startFakeBridge(t, func(ctx context.Context, _ *jsonrpc2.Conn, _ askParams) (any, error) {
		asked <- struct{}{}
		<-ctx.Done()
		return nil, ctx.Err()
	})
	s := newHTTP(t, f.path)
	url, token, err := s.Add("tag-1")
	require.NoError(t, err)
	cs, err := connectHTTP(t, url, "Bearer "+token)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: ToolName, Arguments: json.RawMessage(dbQuestion)})
		done <- err
	}()
	select {
	case <-asked:
	case <-time.After(10 * time.Second):
		t.Fatalf("never asked: %v", <-done)
	}
	cancel()
	select {
	case <-f.gone:
	case <-time.After(10 * time.Second):
		t.Fatal("the connection to askbridge stayed open")
	}
	<-done
	assert.Len(t, f.stoppedWaiting(), 1)
}

func TestHTTPAddAfterCloseFails(t *testing.T) {
	s := NewHTTP("", permission.DefaultLimits(), nil)
	require.NoError(t, s.Close())
	_, _, err := s.Add("tag")
	assert.Error(t, err)
	_, _, err = newHTTP(t, "").Add("a/b")
	assert.Error(t, err)
}
