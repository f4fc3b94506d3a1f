package approvals_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/adapter/adaptertest"
	"github.com/askbridge/askbridge/permission"
)

// A v2 agent's own approval names its tool call under subject, and has a
// title of its own: on the desk it shows what will run, as a v1 one does
// (before, the approvals dialect read only v1's toolCall and the card said
// "Allow this tool call?").
func TestAV2ApprovalOnTheDeskShowsWhatWillRun(t *testing.T) {
	h, board := approvalsBridge(t, adapter.Options{Approvals: adapter.ApprovalsDesk})
	h.Agent.Send(`{"jsonrpc":"2.0","id":"perm-2","method":"session/request_permission","params":{"sessionId":"s1","title":"Run rm -rf build?",` +
		`"subject":{"type":"tool_call","toolCall":{"toolCallId":"toolu_7","kind":"execute","rawInput":{"command":"rm -rf build"}}},` +
		`"options":[{"optionId":"allow","name":"Allow once","kind":"allow_once"},{"optionId":"reject","name":"Reject","kind":"reject_once"}]}}`)
	p := adaptertest.OnBoard(t, board)
	require.NotNil(t, p.Approval)
	var tc map[string]any
	require.NoError(t, json.Unmarshal(p.Approval.ToolCall, &tc))
	assert.Equal(t, map[string]any{"command": "rm -rf build"}, tc["rawInput"])
	assert.Equal(t, "Run rm -rf build?", tc["title"], "the request's title, where the tool call has none")
	require.Len(t, p.Questions, 1)
	assert.Equal(t, "Run rm -rf build?", p.Questions[0].Question)
	assert.Equal(t, "Approval: execute", p.Questions[0].Header)
	require.NoError(t, board.Settle(p.ID, permission.Result{Source: permission.SourceDesk, Answers: []permission.Answered{{Question: p.Questions[0], Answer: permission.Answer{Labels: []string{"Reject"}}}}}, permission.ByEditor()))
	assert.JSONEq(t, `{"outcome":{"outcome":"selected","optionId":"reject"}}`, string(h.AgentReply(t, `"perm-2"`).Result))
}
