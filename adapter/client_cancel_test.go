package adapter

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

// A question answered elsewhere withdraws the editor's copy with
// $/cancel_request, except at a client whose version takes none: acpx
// 0.1.15 (which says it is "0.1.0") prints "Method not found" for it each
// time. The scripted client records every $/cancel_request up to a marker
// the agent sends once it has its answer, which comes after any withdrawal.
func TestOldAcpxIsNeverSentCancelRequest(t *testing.T) {
	for _, c := range []struct {
		name, version string
		cancels       bool
	}{
		{"acpx", "0.1.0", false},  // acpx 0.1.15
		{"acpx", "0.11.2", false}, // its ACP SDK 0.28 has no $/cancel_request
		{"acpx", "", false},       // no version: only an old acpx sends none
		{"acpx", "0.12.0", true},
		{"acpx", "0.19.1", true},
		{"zed", "0.1.0", true},
		{"", "", true},
	} {
		t.Run(c.name+"@"+c.version, func(t *testing.T) {
			h := newBridgeHarness(t, Options{})
			h.Client.Send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{},"clientInfo":{"name":"` + c.name + `","version":"` + c.version + `"}}}`)
			h.Agent.Recv()
			h.OpenSession(t, "s1")
			h.Agent.Send(askDatabase)
			req, _ := h.NextRequest(t, "session/request_permission")
			set := h.bridge.board.List()
			require.Len(t, set, 1)
			q := set[0].Questions[0]
			require.NoError(t, h.bridge.board.Settle(set[0].ID, permission.Result{Source: permission.SourceDesk,
				Answers: []permission.Answered{{Question: q, Answer: permission.Answer{Labels: []string{"Redis"}}, Path: "questions[0]"}}}, permission.ByEditor()))
			assert.Equal(t, map[string]string{"Which database?": "Redis"}, sdkAnswers(t, h.AgentReply(t, "7")))
			h.Agent.Send(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"marker"}}}}`)
			var cancels []string
			for {
				m := decode(t, h.Client.Recv())
				if m.Method == "$/cancel_request" {
					cancels = append(cancels, string(m.Params))
				}
				if m.Method == "session/update" && strings.Contains(string(m.Params), "marker") {
					break
				}
			}
			if c.cancels {
				require.Len(t, cancels, 1, "the editor's copy is withdrawn")
				assert.Contains(t, cancels[0], string(req.ID))
			} else {
				assert.Empty(t, cancels, "a client that takes no $/cancel_request is sent none")
			}
		})
	}
}

// The agent's own $/cancel_request of a request forwarded to the client
// reaches a client that takes it, and not an old acpx.
func TestAgentsCancelRequestReachesOnlyAClientThatTakesIt(t *testing.T) {
	for version, passed := range map[string]bool{"0.1.0": false, "0.19.1": true} {
		t.Run(version, func(t *testing.T) {
			h := newBridgeHarness(t, Options{})
			h.Client.Send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{},"clientInfo":{"name":"acpx","version":"` + version + `"}}}`)
			h.Agent.Recv()
			h.OpenSession(t, "s1")
			h.Agent.Send(`{"jsonrpc":"2.0","id":"fs1","method":"fs/read_text_file","params":{"sessionId":"s1","path":"/tmp/p/a"}}`)
			h.NextRequest(t, "fs/read_text_file")
			h.Agent.Send(`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":"fs1"}}`)
			h.Agent.Send(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"marker"}}}}`)
			var cancels int
			for {
				m := decode(t, h.Client.Recv())
				if m.Method == "$/cancel_request" {
					cancels++
				}
				if m.Method == "session/update" && strings.Contains(string(m.Params), "marker") {
					break
				}
			}
			assert.Equal(t, map[bool]int{true: 1, false: 0}[passed], cancels)
		})
	}
}
