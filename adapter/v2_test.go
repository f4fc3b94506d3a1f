package adapter

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// v2 initialize: the client's capabilities are capabilities (not
// clientCapabilities), and askbridge's defaults go there.
const v2Init = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2,"info":{"name":"v2-editor","version":"1"},"capabilities":{"_meta":{"zed":1}}}}`

// v2Agreed sends a v2 initialize and the agent's answer naming version.
func (h *bridgeHarness) v2Agreed(t *testing.T, version int) {
	t.Helper()
	h.Client.Send(v2Init)
	got := decode(t, h.Agent.Recv())
	assert.JSONEq(t, `{"protocolVersion":2,"info":{"name":"v2-editor","version":"1"},"capabilities":{"_meta":{"zed":1,"qwen.askUserQuestion":true,"kiro":{"userInput":true}},"elicitation":{"form":{},"url":{}}}}`, string(got.Params))
	answer := `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":` + string(rune('0'+version)) + `,"info":{"name":"a","version":"1"},"capabilities":{"session":{}}}}`
	h.Agent.Send(answer)
	assert.Equal(t, answer, h.Client.Recv(), "the agent's answer goes on as it came")
}

// A v2 editor and a v2 agent: the question reaches the editor as a v2
// permission request (title, subject holding the tool call, the options as
// ever), its tool call is created by a tool_call_update, and the session
// says requires_action while it waits, running once answered.
func TestV2QuestionBecomesAV2PermissionRequest(t *testing.T) {
	h := newBridgeHarness(t, Options{Advertise: true})
	h.v2Agreed(t, 2)
	h.OpenSession(t, "s1")
	h.Agent.Send(claudeSingle)
	req, notes := h.NextRequest(t, "session/request_permission")
	var sawState bool
	for _, n := range notes {
		var p struct {
			Update map[string]any `json:"update"`
		}
		require.NoError(t, json.Unmarshal(n.Params, &p))
		assert.NotEqual(t, "tool_call", p.Update["sessionUpdate"], "v2 has no tool_call update")
		if p.Update["sessionUpdate"] == "state_update" {
			assert.Equal(t, "requires_action", p.Update["state"])
			sawState = true
		}
	}
	assert.True(t, sawState, "requires_action while the question waits")
	var p map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(req.Params, &p))
	assert.Nil(t, p["toolCall"], "v2 has no top-level toolCall")
	assert.JSONEq(t, `"Database"`, string(p["title"]))
	assert.Contains(t, string(p["description"]), "Which database?")
	var subject struct {
		Type     string `json:"type"`
		ToolCall struct {
			ToolCallID string `json:"toolCallId"`
			Kind       string `json:"kind"`
		} `json:"toolCall"`
	}
	require.NoError(t, json.Unmarshal(p["subject"], &subject))
	assert.Equal(t, "tool_call", subject.Type)
	assert.Equal(t, "toolu_1", subject.ToolCall.ToolCallID)
	assert.Contains(t, string(p["options"]), `"optionId":"Postgres"`)
	assert.Contains(t, string(p["options"]), `"kind":"allow_once"`)
	h.Answer(t, req, pick("Postgres"))
	reply := h.AgentReply(t, "41")
	assert.JSONEq(t, `{"action":"accept","content":{"question_0":"Postgres"}}`, string(reply.Result))
	for {
		m := decode(t, h.Client.Recv())
		if m.Method == "session/update" && json.Valid(m.Params) && string(m.Params) != "" {
			var u struct {
				Update map[string]any `json:"update"`
			}
			json.Unmarshal(m.Params, &u)
			if u.Update["sessionUpdate"] == "state_update" {
				assert.Equal(t, "running", u.Update["state"])
				return
			}
		}
	}
}

// Outcomes are open in v2: one askbridge does not know (an
// implementation's "_…" or a future one) never counts as an answer, let
// alone approval: the set is cancelled and the agent gets its cancel.
func TestV2UnknownOutcomeIsNeverAnAnswer(t *testing.T) {
	for _, outcome := range []string{
		`{"outcome":{"outcome":"_acme_deferred","optionId":"Postgres","until":"later"}}`,
		`{"outcome":{"outcome":"approved","optionId":"Postgres"}}`,
	} {
		t.Run(outcome, func(t *testing.T) {
			h := newBridgeHarness(t, Options{Advertise: true})
			h.v2Agreed(t, 2)
			h.OpenSession(t, "s1")
			h.Agent.Send(claudeSingle)
			req, _ := h.NextRequest(t, "session/request_permission")
			h.Answer(t, req, outcome)
			reply := h.AgentReply(t, "41")
			assert.JSONEq(t, `{"action":"cancel"}`, string(reply.Result))
		})
	}
}

// A v2 editor in front of a v1 agent: the agent answers 1, and the
// connection speaks v1 as ever: the permission request has its v1 shape.
func TestV2EditorV1AgentSpeaksV1(t *testing.T) {
	h := newBridgeHarness(t, Options{Advertise: true})
	h.v2Agreed(t, 1)
	h.OpenSession(t, "s1")
	h.Agent.Send(claudeSingle)
	req, notes := h.NextRequest(t, "session/request_permission")
	assert.Contains(t, string(req.Params), `"toolCall":`)
	assert.NotContains(t, string(req.Params), `"subject":`)
	for _, n := range notes {
		assert.NotContains(t, string(n.Params), "state_update", "v1 has no session state")
	}
}

// A client asking for a version askbridge does not speak: askbridge asks
// the agent for v2, the highest it can carry across, and keeps the rest.
func TestNewerVersionIsAskedAsV2(t *testing.T) {
	h := newBridgeHarness(t, Options{Advertise: false})
	h.Client.Send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":3,"info":{"name":"x","version":"9"},"capabilities":{"future":{}}}}`)
	got := decode(t, h.Agent.Recv())
	assert.JSONEq(t, `{"protocolVersion":2,"info":{"name":"x","version":"9"},"capabilities":{"future":{}}}`, string(got.Params))
}

// A v1 editor in front of an agent that answers v2 anyway: the client
// will close; askbridge does not start speaking v2 to it.
func TestV1EditorV2AnswerStaysV1(t *testing.T) {
	h := newBridgeHarness(t, Options{Advertise: true})
	h.Client.Send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`)
	h.Agent.Recv()
	h.Agent.Send(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":2,"info":{"name":"a","version":"1"}}}`)
	h.Client.Recv()
	assert.False(t, h.bridge.proto.V2())
}

// An approval the editor answers with an outcome askbridge does not know:
// the agent gets the editor's response as it came (the raw payload kept,
// the agent decides per its policy), and the board never reads it as an
// option picked: the desk's card is settled as cancelled, not approved.
func TestV2UnknownApprovalOutcomeIsKeptRawAndNeverAllow(t *testing.T) {
	h, board := approvalsBridge(t, Options{Approvals: ApprovalsMirror})
	h.Agent.Send(bashApproval)
	h.Client.Recv()
	p := onBoard(t, board)
	resp := `{"jsonrpc":"2.0","id":"perm-1","result":{"outcome":{"outcome":"_acme_allow_later","optionId":"allow","note":{"k":1}}}}`
	h.Client.Send(resp)
	assert.Equal(t, resp, h.Agent.Recv())
	done := settled(t, board, p.ID)
	assert.True(t, done.Result.Cancelled, "an unknown outcome is no answer")
	assert.Empty(t, done.Result.Answers)
}

// A question abandoned by its deadline is withdrawn from a v2 editor
// explicitly ($/cancel_request of the very request), and the agent gets
// what a timeout is for it (decline: nobody answered).
func TestV2TimedOutQuestionIsWithdrawnExplicitly(t *testing.T) {
	h := newBridgeHarness(t, Options{Advertise: true, QuestionTimeout: 150 * time.Millisecond})
	h.v2Agreed(t, 2)
	h.OpenSession(t, "s1")
	h.Agent.Send(claudeSingle)
	req, _ := h.NextRequest(t, "session/request_permission")
	for {
		m := decode(t, h.Client.Recv())
		if m.Method == "$/cancel_request" {
			assert.JSONEq(t, `{"requestId":`+string(req.ID)+`}`, string(m.Params))
			break
		}
	}
	assert.JSONEq(t, `{"action":"decline"}`, string(h.AgentReply(t, "41").Result))
}

// In a v2 session every MCP server askbridge lists names its transport
// (v2's McpServer must; v1's stdio entry has none), and none is listed of
// a transport the agent did not advertise under capabilities.session.mcp:
// a v2 agent refuses the whole session/new for one. The scripted v2 agent
// on the SDK refused askbridge's stdio entry with -32602 before.
func TestV2SessionServersFitTheAgentsCapabilities(t *testing.T) {
	untyped := `{"name":"askbridge-ask","command":"/bin/askbridge","args":["mcp"],"env":[]}`
	client := `{"type":"http","name":"editor","url":"http://127.0.0.1:1/mcp","headers":[]}`
	for _, tc := range []struct{ caps, want string }{
		{`{"session":{"mcp":{"stdio":{}}}}`, `[` + client + `,{"name":"askbridge-ask","command":"/bin/askbridge","args":["mcp"],"env":[],"type":"stdio"}]`},
		{`{"session":{"mcp":{"http":{}}}}`, `[` + client + `]`},
	} {
		h := newBridgeHarness(t, Options{})
		h.Client.Send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2,"info":{"name":"e","version":"1"},"capabilities":{}}}`)
		h.Agent.Recv()
		h.Agent.Send(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":2,"info":{"name":"a","version":"1"},"capabilities":` + tc.caps + `}}`)
		h.Client.Recv()
		h.Client.Send(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/tmp","mcpServers":[` + client + `,` + untyped + `]}}`)
		var p struct {
			MCPServers json.RawMessage `json:"mcpServers"`
		}
		require.NoError(t, json.Unmarshal(decode(t, h.Agent.Recv()).Params, &p))
		assert.JSONEq(t, tc.want, string(p.MCPServers), tc.caps)
	}
}

// On v1 the servers go on as they came: v1's stdio entry has no type.
func TestV1SessionServersUnchanged(t *testing.T) {
	h := newBridgeHarness(t, Options{})
	h.Client.Send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`)
	h.Agent.Recv()
	h.Agent.Send(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}`)
	h.Client.Recv()
	line := `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/tmp","mcpServers":[{"name":"x","command":"/bin/x","args":[],"env":[]}]}}`
	h.Client.Send(line)
	assert.Equal(t, line, h.Agent.Recv())
}
