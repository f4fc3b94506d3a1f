package adapter

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter/cardcontext"
	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/permission/permissiontest"
)

func chunk(session, text string) string {
	t, _ := json.Marshal(text)
	return fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":%q,"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":%s}}}}`, session, t)
}

const planUpdate = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"plan","entries":[` +
	`{"content":"Read the build script","priority":"high","status":"completed"},` +
	`{"content":"Clean the build folder","priority":"medium","status":"in_progress"}]}}}`

// pass sends the agent's lines and reads them at the editor, as they came.
func (h *bridgeHarness) pass(t *testing.T, lines ...string) {
	t.Helper()
	for _, l := range lines {
		h.Agent.Send(l)
		assert.Equal(t, l, h.Client.Recv())
	}
}

// The card of an approval carries what the agent said before it asked
// (its last message, across chunks, cleaned of control characters) and its
// plan; the words of a message before an earlier tool call are not these.
func TestASetCarriesTheAgentsLastWordsAndPlan(t *testing.T) {
	h, board := approvalsBridge(t, Options{Approvals: ApprovalsMirror})
	h.pass(t, chunk("s1", "First I read the script."), bashCall,
		chunk("s1", "The build folder is stale"), chunk("s1", "; I will remove it.\x1b[31m"), chunk("other", "Not this session."),
		planUpdate, bashCall)
	h.Agent.Send(bashApproval)
	h.Client.Recv()
	p := onBoard(t, board)
	require.NotNil(t, p.Context)
	assert.Equal(t, "The build folder is stale; I will remove it.[31m", p.Context.Words, "the last message, its escape removed")
	assert.Equal(t, []permission.PlanEntry{{Content: "Read the build script", Priority: "high", Status: "completed"},
		{Content: "Clean the build folder", Priority: "medium", Status: "in_progress"}}, p.Context.Plan)
}

// Words the agent writes after the tool call that asks (a notice of its
// own, streamed while the question is on its way) are not what it said
// before it asked: the card of that call's set carries the message the
// call ended. A set asked without that call carries the words since.
func TestWordsAfterTheCallThatAsksAreNotItsLastWords(t *testing.T) {
	h, board := approvalsBridge(t, Options{Approvals: ApprovalsMirror})
	h.pass(t, chunk("s1", "The build folder is stale; I will remove it."), bashCall, chunk("s1", "**Warning:** a notice of the agent's own."))
	h.Agent.Send(bashApproval)
	h.Client.Recv()
	p := onBoard(t, board)
	require.NotNil(t, p.Context)
	assert.Equal(t, "The build folder is stale; I will remove it.", p.Context.Words)

	h2, board2 := approvalsBridge(t, Options{Approvals: ApprovalsMirror})
	h2.pass(t, chunk("s1", "The build folder is stale."), bashCall, chunk("s1", "Now another command."))
	h2.Agent.Send(strings.ReplaceAll(bashApproval, "toolu_9", "toolu_10"))
	h2.Client.Recv()
	p = onBoard(t, board2)
	require.NotNil(t, p.Context)
	assert.Equal(t, "Now another command.", p.Context.Words)
}

// A prompt ends the words: an agent that asks at once in a new turn has
// said nothing before it asked.
func TestAPromptForgetsTheWordsOfTheTurnBefore(t *testing.T) {
	h, board := approvalsBridge(t, Options{Approvals: ApprovalsMirror})
	h.pass(t, chunk("s1", "Done with the last task."))
	h.Client.Send(`{"jsonrpc":"2.0","id":"p2","method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`)
	h.Agent.Recv()
	h.pass(t, bashCall)
	h.Agent.Send(bashApproval)
	h.Client.Recv()
	assert.Nil(t, onBoard(t, board).Context)
}

// A secret typed for a secret question (an API key, at the desk) never
// reaches a card, though the agent repeats it, whole or split across
// chunks; the ring's oldest chunk beginning inside it hides its end too.
func TestASecretTheAgentRepeatsIsNotOnTheCard(t *testing.T) {
	board := permission.NewBoard()
	h := newBridgeHarness(t, Options{Advertise: true, Board: board, Approvals: ApprovalsMirror})
	h.OpenSession(t, "s1")
	h.Agent.Send(codexPass)
	h.NextRequest(t, "session/request_permission")
	key := "sk-live-4f9a8b7c6d5e4f3a2b1c"
	_, err := board.ProgressBy(board.List()[0].ID, 0, []permission.Answer{{Other: true, Custom: key}}, permissiontest.InProcess(""))
	require.NoError(t, err)
	h.AgentReply(t, "0")
	for _, l := range []string{chunk("s1", "Using "+key[:10]), chunk("s1", key[10:]+" as asked; then "+key+"."), bashCall, bashApproval} {
		h.Agent.Send(l)
	}
	h.NextRequest(t, "session/request_permission")
	var p permission.Pending
	require.Eventually(t, func() bool {
		for _, s := range board.List() {
			if s.Kind == permission.KindApproval {
				p = s
				return true
			}
		}
		return false
	}, 5e9, 5e6)
	require.NotNil(t, p.Context)
	assert.Equal(t, "Using (secret) as asked; then (secret).", p.Context.Words)
}

// A long message is carried by its end, bounded.
func TestTheWordsAreBounded(t *testing.T) {
	h, board := approvalsBridge(t, Options{Approvals: ApprovalsMirror})
	for i := range 300 {
		h.pass(t, chunk("s1", fmt.Sprintf("word%03d ", i)+strings.Repeat("x", 20)+" "))
	}
	h.pass(t, chunk("s1", "THE END"), bashCall)
	h.Agent.Send(bashApproval)
	h.Client.Recv()
	w := onBoard(t, board).Context.Words
	assert.True(t, strings.HasPrefix(w, "…"))
	assert.True(t, strings.HasSuffix(w, "THE END"))
	assert.Equal(t, cardcontext.MaxWords, len([]rune(w)))
}
