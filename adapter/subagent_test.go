package adapter

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// subagentAnnounce is the parent s1's announcement of its child sub-1.
const subagentAnnounce = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"subagent_update","sessionId":"sub-1","title":"Write the migration","description":"a helper","state":{"state":"running"}}}}`

// A child's question, announced by subagent_update: it says whose
// subagent it is and in which folder (the parent's, as the child named
// none), and cancelling the parent's work withdraws it: the editor's
// request is withdrawn and the agent gets its cancel.
func TestSubagentQuestionNamesItsParentAndEndsWithIt(t *testing.T) {
	h := newBridgeHarness(t, Options{Advertise: true})
	h.OpenSession(t, "s1")
	h.Agent.Send(subagentAnnounce)
	assert.Equal(t, subagentAnnounce, h.Client.Recv(), "the announcement goes on as it came")
	child := strings.ReplaceAll(claudeSingle, `"sessionId":"s1"`, `"sessionId":"sub-1"`)
	h.Agent.Send(child)
	req, _ := h.NextRequest(t, "session/request_permission")
	assert.Contains(t, string(req.Params), `"sessionId":"sub-1"`)
	assert.Equal(t, "subagent of Write the migration in /tmp/p", h.bridge.Subagent("sub-1"))
	assert.Equal(t, "", h.bridge.Subagent("s1"), "the parent is no subagent")

	h.Client.Send(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s1"}}`)
	for {
		m := decode(t, h.Client.Recv())
		if m.Method == "$/cancel_request" {
			assert.JSONEq(t, `{"requestId":`+string(req.ID)+`}`, string(m.Params))
			break
		}
	}
	assert.JSONEq(t, `{"action":"cancel"}`, string(h.AgentReply(t, "41").Result))
}

// Updates follow ACP's patch rule: an omitted field keeps its value, null
// clears it, a string replaces it; a child's own folder wins over its
// parent's, and a grandchild ends with its grandparent.
func TestSubagentUpdatesPatchAndNest(t *testing.T) {
	h := newBridgeHarness(t, Options{})
	h.OpenSession(t, "s1")
	for _, u := range []string{
		subagentAnnounce,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"subagent_update","sessionId":"sub-1","cwd":"/tmp/p/db"}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sub-1","update":{"sessionUpdate":"subagent_update","sessionId":"sub-2","title":null}}}`,
	} {
		h.Agent.Send(u)
		h.Client.Recv()
	}
	assert.Equal(t, "subagent of Write the migration in /tmp/p/db", h.bridge.Subagent("sub-1"))
	assert.Equal(t, "subagent of sub-1 in /tmp/p/db", h.bridge.Subagent("sub-2"))
	assert.ElementsMatch(t, []string{"sub-1", "sub-2"}, h.bridge.subs.Descendants("s1"))
}

// A v1 client that did not opt in to subagents knows no child session: a
// child's question reaches it under the parent's session (askbridge's own
// permission request, and the agent's own approval that goes on to it),
// never as a stray for a session it never opened. One that opted in gets
// the child's session as it is.
func TestSubagentQuestionsReachAClientWithoutSubagentsUnderTheParent(t *testing.T) {
	for _, tc := range []struct {
		caps, want string
	}{
		{`{}`, `"sessionId":"s1"`},
		{`{"subagents":{}}`, `"sessionId":"sub-1"`},
	} {
		h := newBridgeHarness(t, Options{Advertise: true})
		h.Client.Send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":` + tc.caps + `}}`)
		h.Agent.Recv()
		h.Agent.Send(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}`)
		h.Client.Recv()
		h.OpenSession(t, "s1")
		h.Agent.Send(subagentAnnounce)
		h.Client.Recv()
		h.Agent.Send(strings.ReplaceAll(claudeSingle, `"sessionId":"s1"`, `"sessionId":"sub-1"`))
		req, _ := h.NextRequest(t, "session/request_permission")
		assert.Contains(t, string(req.Params), tc.want, tc.caps)
		h.Answer(t, req, pick("Postgres"))
		h.AgentReply(t, "41")
		h.Agent.Send(strings.ReplaceAll(bashApproval, `"sessionId":"s1"`, `"sessionId":"sub-1"`))
		approval, _ := h.NextRequest(t, "session/request_permission")
		assert.Contains(t, string(approval.Params), tc.want, tc.caps)
	}
}
