package adapter

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

// geminiPermission is Gemini CLI 0.61's request to run an MCP tool, as
// recorded in live/gemini_direct_test.go.
func geminiPermission(id int, session, server, tool string, options string) string {
	if options == "" {
		options = `[{"optionId":"proceed_always_server","name":"Allow all server tools for this session","kind":"allow_always"},{"optionId":"proceed_always_tool","name":"Allow tool for this session","kind":"allow_always"},{"optionId":"proceed_once","name":"Allow","kind":"allow_once"},{"optionId":"cancel","name":"Reject","kind":"reject_once"}]`
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"session/request_permission","params":{"sessionId":%q,"options":%s,"toolCall":{"toolCallId":"mcp_%s_%s__gemini_askbridge_0","status":"pending","title":"%s (%s MCP Server)","content":[{"type":"content","content":{"type":"text","text":"{\"questions\":[]}"}}],"locations":[],"kind":"other"}}}`,
		id, session, options, server, tool, tool, server)
}

// The agent's request to run askbridge's own tool is answered by askbridge,
// allowed for the whole session; the client never sees the request.
func TestMCPAskAllowsItsOwnToolWithoutAskingTheUser(t *testing.T) {
	for _, c := range []struct{ name, options, want string }{
		{"the server for the session", "", "proceed_always_server"},
		{"the tool for the session", `[{"optionId":"once","kind":"allow_once"},{"optionId":"always","kind":"allow_always"},{"optionId":"no","kind":"reject_once"}]`, "always"},
		{"once", `[{"optionId":"no","kind":"reject_once"},{"optionId":"yes","kind":"allow_once"}]`, "yes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newInjectHarness(t, InjectAuto, "gemini", "--acp")
			h.initialize(t, geminiInit)
			h.start(t, "n1", "session/new", `{"cwd":"/w","mcpServers":[]}`, "s1")

			h.agent.send(geminiPermission(0, "s1", "askbridge", "ask_user_question", c.options))
			assert.JSONEq(t, `{"outcome":{"outcome":"selected","optionId":"`+c.want+`"}}`, string(h.agentReply(t, "0").Result))
			// The client sees the tool call running, as Gemini's later
			// updates of it expect, and no request.
			assert.JSONEq(t, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call",
				"toolCallId":"mcp_askbridge_ask_user_question__gemini_askbridge_0","status":"in_progress","title":"ask_user_question (askbridge MCP Server)",
				"content":[{"type":"content","content":{"type":"text","text":"{\"questions\":[]}"}}],"locations":[],"kind":"other"}}}`, h.client.recv())
			h.agent.send(`{"jsonrpc":"2.0","method":"ping/after"}`)
			assert.Equal(t, "ping/after", decode(t, h.client.recv()).Method, "nothing else reached the client")
			assert.Contains(t, h.log.String(), "allowed askbridge's ask tool for the session")
		})
	}
}

// Every other permission request is the user's, byte for byte: another
// server's tool, askbridge's tool in a session it was not listed in, and a
// request with no option that allows.
func TestMCPAskPassesOtherPermissionRequests(t *testing.T) {
	h := newInjectHarness(t, InjectAuto, "gemini", "--acp")
	h.initialize(t, geminiInit)
	h.start(t, "n1", "session/new", `{"cwd":"/w","mcpServers":[]}`, "s1")
	for i, line := range []string{
		geminiPermission(1, "s1", "other", "ask_user_question", ""),
		geminiPermission(2, "s1", "askbridge", "delete_everything", ""),
		geminiPermission(3, "s-unlisted", "askbridge", "ask_user_question", ""),
		geminiPermission(4, "s1", "askbridge", "ask_user_question", `[{"optionId":"cancel","kind":"reject_once"}]`),
		`{"jsonrpc":"2.0","id":5,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"t","title":"Run ls"},"options":[{"optionId":"ok","kind":"allow_once"}]}}`,
	} {
		h.agent.send(line)
		assert.Equal(t, line, h.client.recv(), "request %d", i+1)
	}
}

// With injection off, even askbridge's own tool is the user's to allow.
func TestMCPAskNeverAnswersNothing(t *testing.T) {
	h := newInjectHarness(t, InjectNever, "gemini", "--acp")
	h.initialize(t, geminiInit)
	h.start(t, "n1", "session/new", `{"cwd":"/w","mcpServers":[]}`, "s1")
	line := geminiPermission(1, "s1", "askbridge", "ask_user_question", "")
	h.agent.send(line)
	assert.Equal(t, line, h.client.recv())
}
