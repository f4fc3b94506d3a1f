package asktool_test

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/adapter/adaptertest"
	"github.com/askbridge/askbridge/adapter/dialect/asktool"
	"github.com/askbridge/askbridge/adapter/relay/relaytest"
)

const copilotInit = `{"protocolVersion":1,"agentCapabilities":{"loadSession":true,"mcpCapabilities":{"http":true,"sse":true}},"agentInfo":{"name":"Copilot","title":"Copilot","version":"1.0.102"}}`

// newHTTPInjectHarness is newInjectHarness whose MCPAsk's HTTP server is
// closed at the end of the test.
func newHTTPInjectHarness(t *testing.T, argv ...string) *injectHarness {
	log := &relaytest.Buffer{}
	dialects := adapter.DialectsWith(adapter.DialectConfig{AskTool: asktool.Config{Command: testExe, Socket: testSocket, Argv: argv}})
	for _, d := range dialects {
		if m, ok := d.(*asktool.MCPAsk); ok {
			t.Cleanup(func() { m.Close() })
		}
	}
	h := adaptertest.New(t, adapter.Options{Dialects: dialects, Logger: slog.New(slog.NewTextHandler(log, nil))})
	return &injectHarness{Harness: h, log: log}
}

// post sends an MCP initialize to url with auth and returns the status.
func post(t *testing.T, url, auth string) int {
	t.Helper()
	req, err := http.NewRequest("POST", url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	c := &http.Client{Timeout: 10 * time.Second}
	resp, err := c.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	return resp.StatusCode
}

// httpListing is askbridge's http entry in a forwarded request.
type httpListing struct {
	Type    string `json:"type"`
	Name    string `json:"name"`
	URL     string `json:"url"`
	Headers []struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	} `json:"headers"`
}

func lastServer(t *testing.T, line string) (json.RawMessage, int) {
	t.Helper()
	var m struct {
		Params struct {
			MCPServers []json.RawMessage `json:"mcpServers"`
		} `json:"params"`
	}
	require.NoError(t, json.Unmarshal([]byte(line), &m), line)
	require.NotEmpty(t, m.Params.MCPServers, line)
	return m.Params.MCPServers[len(m.Params.MCPServers)-1], len(m.Params.MCPServers)
}

// Copilot CLI gets askbridge's own HTTP server, after the client's servers:
// a path per listing with the tag in it, and a bearer token of its own that
// nothing else opens the listing without.
func TestMCPAskListsHTTPForCopilot(t *testing.T) {
	h := newHTTPInjectHarness(t, "copilot", "--acp", "--stdio")
	h.initialize(t, copilotInit)
	client := `{"type":"http","name":"mine","url":"http://127.0.0.1:1/mcp","headers":[]}`
	got := h.start(t, "n1", "session/new", `{"cwd":"/w","mcpServers":[`+client+`]}`, "s1")
	raw, n := lastServer(t, got)
	require.Equal(t, 2, n)
	assert.Contains(t, got, client, "the client's server as it came")
	var l httpListing
	require.NoError(t, json.Unmarshal(raw, &l))
	assert.Equal(t, "http", l.Type)
	assert.Regexp(t, `^askbridge-[g-z]{12}$`, l.Name)
	assert.Regexp(t, `^http://127\.0\.0\.1:[0-9]+/mcp/askbridge-[0-9a-f]{16}$`, l.URL)
	require.Len(t, l.Headers, 1)
	assert.Equal(t, "Authorization", l.Headers[0].Name)
	assert.Regexp(t, `^Bearer [0-9a-f]{64}$`, l.Headers[0].Value)
	assert.NotContains(t, got, testSocket, "the agent is not told the socket")
	assert.Contains(t, h.log.String(), "transport=http")

	assert.Equal(t, http.StatusOK, post(t, l.URL, l.Headers[0].Value))
	assert.Equal(t, http.StatusUnauthorized, post(t, l.URL, ""))
	assert.Equal(t, http.StatusUnauthorized, post(t, l.URL, "Bearer "+strings.Repeat("0", 64)))

	// A second session gets its own path and token; each token opens only
	// its own listing.
	raw2, _ := lastServer(t, h.start(t, "n2", "session/new", `{"cwd":"/w","mcpServers":[]}`, "s2"))
	var l2 httpListing
	require.NoError(t, json.Unmarshal(raw2, &l2))
	assert.Equal(t, l.Name, l2.Name)
	assert.NotEqual(t, l.URL, l2.URL)
	assert.NotEqual(t, l.Headers[0].Value, l2.Headers[0].Value)
	assert.Equal(t, http.StatusUnauthorized, post(t, l2.URL, l.Headers[0].Value))

	// The tag in the path names the session, as the env's does for stdio.
	tag := l.URL[strings.LastIndex(l.URL, "/")+1:]
	assert.Equal(t, "s1", h.askTagged(t, 9, tag))
}

// A session that did not start leaves no listing open.
func TestMCPAskClosesTheHTTPListingOfAFailedSession(t *testing.T) {
	h := newHTTPInjectHarness(t, "copilot")
	h.initialize(t, copilotInit)
	raw, _ := lastServer(t, h.start(t, "n1", "session/new", `{"cwd":"/w","mcpServers":[]}`, ""))
	var l httpListing
	require.NoError(t, json.Unmarshal(raw, &l))
	assert.Equal(t, http.StatusUnauthorized, post(t, l.URL, l.Headers[0].Value))
}

// stdio where http is not advertised, and for agents that take stdio
// (Gemini keeps what works even when it could take http).
func TestMCPAskListsStdioElsewhere(t *testing.T) {
	for name, c := range map[string]struct {
		argv []string
		init string
	}{
		"Copilot without mcpCapabilities.http": {[]string{"copilot"}, `{"agentInfo":{"name":"Copilot"}}`},
		"Gemini advertising http":              {[]string{"gemini", "--acp"}, `{"agentInfo":{"name":"gemini-cli"},"agentCapabilities":{"mcpCapabilities":{"http":true}}}`},
		"an unknown agent advertising http":    {[]string{"vibe-acp"}, `{"agentCapabilities":{"mcpCapabilities":{"http":true}}}`},
	} {
		t.Run(strings.ReplaceAll(name, " ", "_"), func(t *testing.T) {
			h := newHTTPInjectHarness(t, c.argv...)
			h.initialize(t, c.init)
			_, tag := listed(t, h.start(t, "n1", "session/new", `{"cwd":"/w","mcpServers":[]}`, "s1"))
			assert.NotEmpty(t, tag, "a stdio entry with its tag")
			assert.Contains(t, h.log.String(), "transport=stdio")
		})
	}
}

// Copilot is recognised by its command too, and auto gives it the tool:
// it has no question tool of its own.
func TestMCPAskRecognisesCopilot(t *testing.T) {
	for _, argv := range [][]string{{"copilot", "--acp", "--stdio"}, {"npx", "-y", "@github/copilot", "--acp"}, {"node", "/x/node_modules/@github/copilot/npm-loader.js", "--acp"}} {
		h := newHTTPInjectHarness(t, argv...)
		h.initialize(t, `{"agentCapabilities":{"mcpCapabilities":{"http":true}}}`)
		raw, _ := lastServer(t, h.start(t, "n1", "session/new", `{"cwd":"/w","mcpServers":[]}`, "s1"))
		assert.Contains(t, string(raw), `"type":"http"`, "argv %v", argv)
	}
}

// copilotOptions are Copilot CLI 1.0.102's options for running an MCP tool
// that is not read-only (live/copilot_direct_test.go).
const copilotOptions = `[{"optionId":"allow_once","kind":"allow_once","name":"Allow once"},{"optionId":"allow_always","kind":"allow_always","name":"Always allow"},{"optionId":"reject_once","kind":"reject_once","name":"Deny"}]`

// askbridge answers none of Copilot's permission requests: its ask tool is
// read-only, so Copilot asks none for it, and Copilot's request for an MCP
// tool names no server, so one for a tool of the same name on another
// server, or a shell command, would look the same. Every one reaches the
// client byte for byte.
func TestMCPAskAnswersNoCopilotPermission(t *testing.T) {
	h := newHTTPInjectHarness(t, "copilot", "--acp", "--stdio")
	h.initialize(t, copilotInit)
	raw, _ := lastServer(t, h.start(t, "n1", "session/new", `{"cwd":"/w","mcpServers":[]}`, "s1"))
	var l httpListing
	require.NoError(t, json.Unmarshal(raw, &l))
	server := l.Name
	for i, line := range []string{
		permissionLine(1, "s1", "call_askbridge_0", "ask_user_question", "other", copilotOptions),
		permissionLine(2, "s1", "call_askbridge_0", server+"-ask_user_question", "other", copilotOptions),
		permissionLine(3, "s1", "call_x", "rm -rf build # "+server+"-ask_user_question", "execute", copilotOptions),
		permissionLine(4, "s1", "mcp_"+server+"_ask_user_question_0", "ask_user_question ("+server+" MCP Server)", "other", copilotOptions),
	} {
		h.Agent.Send(line)
		assert.Equal(t, line, h.Client.Recv(), "request %d reaches the client as it came", i+1)
	}
}
