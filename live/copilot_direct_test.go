//go:build live

package live

import (
	"context"
	"encoding/json"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/askbridge/askbridge/live/harness"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// These tests run Copilot CLI directly, with the test's own MCP servers
// listed in session/new. They pin down what askbridge relies on: Copilot
// offers its model no question tool, drops every stdio server, offers an
// http server's tool as <server>-<tool>, and asks no permission to run a
// tool that says it is read-only (askbridge's is). A tool that does not say
// so gets a permission request titled with the bare tool name — no server
// in it — so askbridge could not tell its own tool's request from another
// server's tool of the same name: it answers none of Copilot's.

// httpProbe is an http MCP server of the test's own with one tool, named
// tool, answering "probe ok"; calls counts its calls.
type httpProbe struct {
	url   string
	mu    sync.Mutex
	calls int
}

func newHTTPProbe(t *testing.T, readOnly bool, name string) *httpProbe {
	t.Helper()
	p := &httpProbe{}
	s := mcp.NewServer(&mcp.Implementation{Name: "probe", Version: "1"}, nil)
	tool := &mcp.Tool{Name: name, InputSchema: json.RawMessage(`{"type":"object"}`)}
	if readOnly {
		tool.Annotations = &mcp.ToolAnnotations{ReadOnlyHint: true}
	}
	s.AddTool(tool, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		p.mu.Lock()
		p.calls++
		p.mu.Unlock()
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "probe ok"}}}, nil
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := &http.Server{Handler: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	p.url = "http://" + ln.Addr().String() + "/"
	return p
}

func (p *httpProbe) served() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.calls
}

func TestCopilotDirectMCPTools(t *testing.T) {
	for _, readOnly := range []bool{true, false} {
		name := map[bool]string{true: "read-only", false: "not_read-only"}[readOnly]
		t.Run(name, func(t *testing.T) {
			m := model(t, harness.Copilot.Tool, dbQuestion, dbQuestion)
			p := newHTTPProbe(t, readOnly, "ask_user_question")
			perms := &permissionLog{answer: func(int, map[string]any) string { return pick("allow_once") }}
			r := harness.Start(t, harness.Copilot, harness.Options{ModelURL: m.URL, Client: harness.Client{RequestPermission: perms.handle}})
			info, err := r.Initialize(harness.NoFeatures)
			require.NoError(t, err)
			assert.Contains(t, string(info), `"mcpCapabilities":{"http":true,"sse":true}`)
			assert.Contains(t, string(info), `"agentInfo":{"name":"Copilot"`)
			stdio := newProbe(t, "stdio-probe", "tag")
			res, err := r.Call("session/new", map[string]any{"cwd": r.Home, "mcpServers": []any{stdio.Entry,
				map[string]any{"type": "http", "name": "probe", "url": p.url, "headers": []any{}}}})
			require.NoError(t, err)
			var created struct{ SessionID string }
			require.NoError(t, json.Unmarshal(res, &created))
			stop, err := r.Prompt(created.SessionID, "Ask me about the service.")
			require.NoError(t, err)
			assert.Equal(t, "end_turn", stop)

			assert.Contains(t, r.Stderr()+filesUnder(t, r.Home), "Rejecting non-http/sse MCP server", "the stdio server was dropped")
			assert.Empty(t, stdio.Calls(t))
			assert.Equal(t, 2, p.served())
			assert.Equal(t, []string{"probe ok", "probe ok"}, m.ToolResults())
			var tools []string
			for _, q := range m.Requests() {
				if q.Offered {
					tools = offeredTools(t, q.Body)
					break
				}
			}
			assert.Contains(t, tools, "probe-ask_user_question")
			// Its own tools under ACP, none of them a question tool.
			assert.Equal(t, []string{"bash", "read_bash", "stop_bash", "list_bash", "view", "create", "edit", "sql",
				"read_agent", "list_agents", "write_agent", "grep", "glob", "task", "probe-ask_user_question"}, tools)
			if readOnly {
				assert.Empty(t, perms.got(), "Copilot asked to run a read-only tool")
				return
			}
			// One request per call, allowed once: the bare tool name, kind
			// other, the model's call id, options named by their kinds.
			require.Len(t, perms.got(), 2)
			for i, params := range perms.got() {
				tc := params["toolCall"].(map[string]any)
				assert.Equal(t, "ask_user_question", tc["title"])
				assert.Equal(t, "other", tc["kind"])
				assert.Equal(t, []any{"call_askbridge_0", "call_askbridge_1"}[i], tc["toolCallId"])
				assert.Equal(t, []any{
					map[string]any{"optionId": "allow_once", "kind": "allow_once", "name": "Allow once"},
					map[string]any{"optionId": "allow_always", "kind": "allow_always", "name": "Always allow"},
					map[string]any{"optionId": "reject_once", "kind": "reject_once", "name": "Deny"},
				}, params["options"])
			}
		})
	}
}

// offeredTools are the function names of a chat completions request.
func offeredTools(t *testing.T, body []byte) []string {
	t.Helper()
	var req struct {
		Tools []struct {
			Function struct{ Name string } `json:"function"`
		} `json:"tools"`
	}
	require.NoError(t, json.Unmarshal(body, &req))
	var out []string
	for _, tool := range req.Tools {
		out = append(out, tool.Function.Name)
	}
	return out
}

// filesUnder is the text of every file under dir (Copilot logs to
// ~/.copilot/logs, not stderr).
func filesUnder(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if data, err := os.ReadFile(path); err == nil {
				b.Write(data)
			}
		}
		return nil
	})
	return b.String()
}
