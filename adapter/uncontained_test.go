package adapter

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/permission"
)

// uncontainedBridge is a bridge told, as the proxy tells it once the agent
// runs, that its agent is not contained.
func uncontainedBridge(t *testing.T, opts Options) *bridgeHarness {
	t.Helper()
	opts.Board, opts.Limits = permission.NewBoard(), permission.DefaultLimits()
	b := NewBridge(opts)
	b.MarkUncontained(relay.UncontainedWarning)
	bh := wrapBridge(t, b)
	bh.OpenSession(t, "s1")
	return bh
}

// The editor's own permission request is where most approvals are
// decided: for an uncontained agent it says so in its title and on every
// allowing button, and keeps everything else as the agent sent it.
func TestUncontainedAgentsApprovalSaysSoInTheEditor(t *testing.T) {
	for _, mode := range []Approvals{ApprovalsClient, ApprovalsMirror} {
		h := uncontainedBridge(t, Options{Approvals: mode})
		h.Agent.Send(bashCall)
		h.Client.Recv()
		h.Agent.Send(bashApproval)
		var got struct {
			ID     string `json:"id"`
			Params struct {
				SessionID string `json:"sessionId"`
				ToolCall  struct {
					ToolCallID string `json:"toolCallId"`
					Title      string `json:"title"`
				} `json:"toolCall"`
				Options []struct{ OptionID, Name, Kind string } `json:"options"`
			} `json:"params"`
		}
		require.NoError(t, json.Unmarshal([]byte(h.Client.Recv()), &got))
		assert.Equal(t, "perm-1", got.ID)
		assert.Equal(t, "toolu_9", got.Params.ToolCall.ToolCallID)
		assert.Equal(t, "⚠ "+relay.UncontainedWarning+" — rm -rf build", got.Params.ToolCall.Title, mode)
		require.Len(t, got.Params.Options, 3)
		assert.Equal(t, "Allow once (agent not contained)", got.Params.Options[0].Name)
		assert.Equal(t, "Always allow (agent not contained)", got.Params.Options[1].Name)
		assert.Equal(t, "Reject", got.Params.Options[2].Name, "a rejecting button is left as it is")
		assert.Equal(t, "allow", got.Params.Options[0].OptionID, "the ids the agent reads are untouched")
	}
}

// A contained agent's requests reach the editor byte for byte, and so does
// a question asked as a permission request (Qwen's), marked or not.
func TestContainedAgentsApprovalIsUntouched(t *testing.T) {
	h, _ := approvalsBridge(t, Options{})
	h.Agent.Send(bashCall)
	h.Client.Recv()
	h.Agent.Send(bashApproval)
	assert.Equal(t, bashApproval, h.Client.Recv())

	u := uncontainedBridge(t, Options{})
	question := `{"jsonrpc":"2.0","id":"q-1","method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"t1","title":"Pick","rawInput":{"questions":[]}},"options":[{"optionId":"proceed_once","name":"Submit","kind":"allow_once"}]}}`
	u.Agent.Send(question)
	assert.JSONEq(t, question, u.Client.Recv())
}
