package adapter

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

// "Deny…" with a reason, at the desk: the agent gets its reject option
// (ACP has no field for a reason), the editor is told at once in the
// session, and the reason goes first in the user's next prompt, once; the
// prompt after it goes as it came. Before, the reason was nowhere.
func TestADenialsReasonReachesTheNextPrompt(t *testing.T) {
	h, board := approvalsBridge(t, Options{Approvals: ApprovalsMirror})
	h.Agent.Send(bashCall)
	h.Client.Recv()
	h.Agent.Send(bashApproval)
	h.Client.Recv()
	p := onBoard(t, board)
	const reason = "don't delete it, move it to archive/"
	_, err := board.ProgressBy(p.ID, 0, []permission.Answer{{Labels: []string{"Reject"}}}, permission.By{Device: "d1", Name: "Pixel 8", Reason: reason, Route: permission.RoutePage, Proof: permission.ProofDevice | permission.ProofPresence})
	require.NoError(t, err)

	var told bool
	for range 2 { // the editor's copy withdrawn, and the editor told
		line := h.Client.Recv()
		if strings.Contains(line, "session/update") {
			told = true
			assert.Contains(t, line, "move it to archive/")
			assert.Contains(t, line, `"sessionId":"s1"`)
		}
	}
	assert.True(t, told, "the editor is told what happened")
	assert.JSONEq(t, `{"outcome":{"outcome":"selected","optionId":"reject"}}`, string(h.AgentReply(t, `"perm-1"`).Result))

	h.Client.Send(`{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"go on"}]}}`)
	var prompt struct {
		Params struct {
			Prompt []struct{ Type, Text string } `json:"prompt"`
		} `json:"params"`
	}
	require.NoError(t, json.Unmarshal([]byte(h.Agent.Recv()), &prompt))
	require.Len(t, prompt.Params.Prompt, 2)
	assert.Equal(t, DenialNote("rm -rf build", reason), prompt.Params.Prompt[0].Text)
	assert.Equal(t, "go on", prompt.Params.Prompt[1].Text, "the user's own text comes after")

	h.Client.Send(`{"jsonrpc":"2.0","id":8,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"again"}]}}`)
	require.NoError(t, json.Unmarshal([]byte(h.Agent.Recv()), &prompt))
	assert.Len(t, prompt.Params.Prompt, 1, "the note goes once")
}

// A reason goes only with a reject option: with an allow it is refused,
// and nothing is queued.
func TestAReasonGoesOnlyWithADenial(t *testing.T) {
	h, board := approvalsBridge(t, Options{Approvals: ApprovalsMirror})
	h.Agent.Send(bashApproval)
	h.Client.Recv()
	p := onBoard(t, board)
	_, err := board.ProgressBy(p.ID, 0, []permission.Answer{{Labels: []string{"Allow once"}}}, permission.By{Reason: "because", Route: permission.RoutePage, Proof: permission.ProofDevice | permission.ProofPresence})
	require.ErrorIs(t, err, permission.ErrNotDenial)
	got, _ := board.Get(p.ID)
	assert.Equal(t, permission.StatePending, got.State)
}
