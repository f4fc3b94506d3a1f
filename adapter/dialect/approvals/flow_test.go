package approvals_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/adapter/adaptertest"
	"github.com/askbridge/askbridge/adapter/dialect/approvals/approvalstest"
	"github.com/askbridge/askbridge/permission"
)

// An agent's approval of a shell command (approvalstest).
const bashCall, bashApproval = approvalstest.BashCall, approvalstest.BashApproval

func approvalsBridge(t *testing.T, opts adapter.Options) (*adaptertest.Harness, *permission.Board) {
	t.Helper()
	opts.Board = permission.NewBoard()
	h := adaptertest.New(t, opts)
	h.OpenSession(t, "s1")
	return h, opts.Board
}

func TestApprovalsByDefaultGoToTheEditorOnly(t *testing.T) {
	h, board := approvalsBridge(t, adapter.Options{})
	h.Agent.Send(bashCall)
	assert.Equal(t, bashCall, h.Client.Recv())
	h.Agent.Send(bashApproval)
	assert.Equal(t, bashApproval, h.Client.Recv())
	time.Sleep(50 * time.Millisecond)
	assert.Empty(t, board.List())
}

// Mirrored: the editor gets the request as it came, and the board has it
// as an approval with what will run; answered at the desk by the option's
// name, the agent gets that option, the editor's copy is withdrawn and its
// late answer dropped.
func TestApprovalMirroredAnsweredAtTheDesk(t *testing.T) {
	h, board := approvalsBridge(t, adapter.Options{Approvals: adapter.ApprovalsMirror})
	h.Agent.Send(bashCall)
	h.Client.Recv()
	h.Agent.Send(bashApproval)
	assert.Equal(t, bashApproval, h.Client.Recv())
	p := adaptertest.OnBoard(t, board)
	assert.Equal(t, permission.KindApproval, p.Kind)
	require.NotNil(t, p.Approval)
	var tc map[string]any
	require.NoError(t, json.Unmarshal(p.Approval.ToolCall, &tc))
	assert.Equal(t, map[string]any{"command": "rm -rf build"}, tc["rawInput"], "merged from the tool_call notification")
	assert.Equal(t, "execute", tc["kind"])
	assert.Equal(t, "rm -rf build", tc["title"], "the request's own title wins")
	require.Len(t, p.Questions, 1)
	q := p.Questions[0]
	assert.True(t, q.Kind.Fixed)
	assert.Equal(t, "rm -rf build", q.Question)
	assert.Equal(t, []permission.Option{{Label: "Allow once"}, {Label: "Always allow", Description: "lasting: the agent will not ask again"}, {Label: "Reject"}}, q.Options)

	require.NoError(t, board.Settle(p.ID, permission.Result{Source: permission.SourceDesk, Answers: []permission.Answered{{Question: q, Answer: permission.Answer{Labels: []string{"Allow once"}}}}}, permission.ByEditor()))
	assert.JSONEq(t, `{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":"perm-1"}}`, h.Client.Recv())
	assert.JSONEq(t, `{"outcome":{"outcome":"selected","optionId":"allow"}}`, string(h.AgentReply(t, `"perm-1"`).Result))
	h.Client.Send(`{"jsonrpc":"2.0","id":"perm-1","result":{"outcome":{"outcome":"selected","optionId":"always"}}}`)
	h.Client.Send(`{"jsonrpc":"2.0","method":"pong/after"}`)
	assert.Equal(t, "pong/after", adaptertest.Decode(t, h.Agent.Recv()).Method, "the editor's late answer was dropped")
}

// Mirrored and answered in the editor: the agent gets the editor's answer
// as it came, and the desk's card goes.
func TestApprovalMirroredAnsweredInTheEditor(t *testing.T) {
	h, board := approvalsBridge(t, adapter.Options{Approvals: adapter.ApprovalsMirror})
	h.Agent.Send(bashApproval)
	h.Client.Recv()
	p := adaptertest.OnBoard(t, board)
	resp := `{"jsonrpc":"2.0","id":"perm-1","result":{"outcome":{"outcome":"selected","optionId":"reject"}}}`
	h.Client.Send(resp)
	assert.Equal(t, resp, h.Agent.Recv())
	done := adaptertest.Settled(t, board, p.ID)
	assert.Equal(t, permission.SourceClient, done.Result.Source)
	assert.Equal(t, []string{"Reject"}, done.Result.Answers[0].Answer.Labels)
}

// On the desk only: the editor never sees the request.
func TestApprovalOnTheDeskOnlyNeverReachesTheEditor(t *testing.T) {
	h, board := approvalsBridge(t, adapter.Options{Approvals: adapter.ApprovalsDesk})
	h.Agent.Send(bashApproval)
	p := adaptertest.OnBoard(t, board)
	require.NoError(t, board.Settle(p.ID, permission.Result{Source: permission.SourceDesk, Answers: []permission.Answered{{Question: p.Questions[0], Answer: permission.Answer{Labels: []string{"Always allow"}}}}}, permission.ByEditor()))
	assert.JSONEq(t, `{"outcome":{"outcome":"selected","optionId":"always"}}`, string(h.AgentReply(t, `"perm-1"`).Result))
	h.Agent.Send(`{"jsonrpc":"2.0","method":"ping/after"}`)
	assert.Equal(t, "ping/after", adaptertest.Decode(t, h.Client.Recv()).Method, "nothing of the approval reached the editor")
}

// Never an automatic yes: --question-timeout with --on-timeout recommended
// leaves an approval pending; --approval-timeout ends it as the agent's
// reject_once, or cancelled when it has none.
func TestApprovalTimesOutOnlyAsARejection(t *testing.T) {
	t.Run("question timeout", func(t *testing.T) {
		h, board := approvalsBridge(t, adapter.Options{Approvals: adapter.ApprovalsDesk, QuestionTimeout: 50 * time.Millisecond, OnTimeout: adapter.TimeoutRecommended})
		h.Agent.Send(bashApproval)
		p := adaptertest.OnBoard(t, board)
		assert.Nil(t, p.Deadline)
		time.Sleep(200 * time.Millisecond)
		got, _ := board.Get(p.ID)
		assert.Equal(t, permission.StatePending, got.State)
	})
	t.Run("approval timeout", func(t *testing.T) {
		h, board := approvalsBridge(t, adapter.Options{Approvals: adapter.ApprovalsMirror, ApprovalTimeout: 100 * time.Millisecond, OnTimeout: adapter.TimeoutRecommended})
		h.Agent.Send(bashApproval)
		h.Client.Recv()
		// The reply first: on a busy machine the 100 ms can pass before a
		// look at the board finds the set pending.
		assert.JSONEq(t, `{"outcome":{"outcome":"selected","optionId":"reject"}}`, string(h.AgentReply(t, `"perm-1"`).Result))
		sets, _ := board.History("s1")
		require.Len(t, sets, 1)
		assert.Equal(t, permission.StateTimeout, adaptertest.Settled(t, board, sets[0].ID).State)
	})
	t.Run("no reject option", func(t *testing.T) {
		h, _ := approvalsBridge(t, adapter.Options{Approvals: adapter.ApprovalsDesk, ApprovalTimeout: 100 * time.Millisecond})
		h.Agent.Send(`{"jsonrpc":"2.0","id":5,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"t"},"options":[{"optionId":"ok","name":"OK","kind":"allow_once"}]}}`)
		assert.JSONEq(t, `{"outcome":{"outcome":"cancelled"}}`, string(h.AgentReply(t, "5").Result))
	})
}
