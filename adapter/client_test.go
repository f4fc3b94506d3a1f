package adapter

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

const askDatabase = `{"jsonrpc":"2.0","id":7,"method":"_askbridge/ask","params":{"sessionId":"s1","questions":[{"question":"Which database?","header":"Database","multiSelect":false,"options":[{"label":"Postgres","description":"relational"},{"label":"Redis","description":"in memory"}]}]}}`

// answers reads the SDK-style result's answers from the agent's reply.
func sdkAnswers(t *testing.T, m rpc) map[string]string {
	t.Helper()
	var r struct {
		UpdatedInput struct {
			Answers map[string]string `json:"answers"`
		} `json:"updatedInput"`
	}
	require.NoError(t, json.Unmarshal(m.Result, &r), string(m.Result))
	return r.UpdatedInput.Answers
}

func initialize(h *bridgeHarness, client string) {
	h.Client.Send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{},"clientInfo":{"name":"` + client + `","version":"0.19.1"}}}`)
	h.Agent.Recv()
}

// acpx is in the client table as a yes/no client: each option is asked on
// its own, with the question and the option in the title, and n then y
// answers with the second option.
func TestYesNoClientFromTheTableIsAskedAWalk(t *testing.T) {
	h := newBridgeHarness(t, Options{})
	initialize(h, "acpx")
	h.OpenSession(t, "s1")
	h.Agent.Send(askDatabase)
	req, _ := h.NextRequest(t, "session/request_permission")
	assert.Contains(t, string(req.Params), `"title":"Which database? — Postgres - relational"`)
	assert.Contains(t, string(req.Params), `{"kind":"allow_once","name":"Yes","optionId":"yes"},{"kind":"reject_once","name":"No","optionId":"no"}`)
	h.Answer(t, req, pick(permission.NoID))
	req, _ = h.NextRequest(t, "session/request_permission")
	assert.Contains(t, string(req.Params), `"title":"Which database? — Redis - in memory"`)
	h.Answer(t, req, pick(permission.YesID))
	assert.Equal(t, map[string]string{"Which database?": "Redis"}, sdkAnswers(t, h.AgentReply(t, "7")))
}

// --render permission overrides the table: acpx gets the usual request.
func TestRenderFlagOverridesTheClientTable(t *testing.T) {
	h := newBridgeHarness(t, Options{Render: RenderPermission})
	initialize(h, "acpx")
	h.OpenSession(t, "s1")
	h.Agent.Send(askDatabase)
	req, _ := h.NextRequest(t, "session/request_permission")
	assert.Contains(t, string(req.Params), `"optionId":"Postgres"`)
	h.Answer(t, req, pick("Postgres"))
	assert.Equal(t, map[string]string{"Which database?": "Postgres"}, sdkAnswers(t, h.AgentReply(t, "7")))
}

// An answer faster than a person can read is not handed to the agent as
// the user's: with nobody else to answer, the model is told no person saw
// the question.
func TestAutomaticAnswerIsNotTheUsers(t *testing.T) {
	h := newBridgeHarness(t, Options{Routing: Routing{MinAnswerTime: 200 * time.Millisecond}})
	initialize(h, "some-bot")
	h.OpenSession(t, "s1")
	h.Agent.Send(askDatabase)
	req, _ := h.NextRequest(t, "session/request_permission")
	h.Answer(t, req, pick("Postgres")) // at once, as acpx --approve-all does
	assert.Equal(t, map[string]string{"Which database?": permission.NoPersonSaw}, sdkAnswers(t, h.AgentReply(t, "7")))
}

// A person's answer, slower than the threshold, goes through.
func TestAnswerAtAPersonsPaceIsTheUsers(t *testing.T) {
	h := newBridgeHarness(t, Options{Routing: Routing{MinAnswerTime: 100 * time.Millisecond}})
	initialize(h, "some-editor")
	h.OpenSession(t, "s1")
	h.Agent.Send(askDatabase)
	req, _ := h.NextRequest(t, "session/request_permission")
	time.Sleep(150 * time.Millisecond)
	h.Answer(t, req, pick("Redis"))
	assert.Equal(t, map[string]string{"Which database?": "Redis"}, sdkAnswers(t, h.AgentReply(t, "7")))
}

// With the desk or the hub there, an automatic answer leaves the question
// on the board for them.
func TestAutomaticAnswerWaitsForTheDesk(t *testing.T) {
	board := permission.NewBoard()
	h := newBridgeHarness(t, Options{Board: board, Routing: Routing{MinAnswerTime: 200 * time.Millisecond, Elsewhere: func() bool { return true }}})
	initialize(h, "some-bot")
	h.OpenSession(t, "s1")
	h.Agent.Send(askDatabase)
	req, _ := h.NextRequest(t, "session/request_permission")
	h.Answer(t, req, pick("Postgres"))
	var p permission.Pending
	require.Eventually(t, func() bool {
		list := board.List()
		if len(list) == 1 {
			p = list[0]
		}
		return len(list) == 1
	}, 5*time.Second, 10*time.Millisecond)
	time.Sleep(50 * time.Millisecond)
	_, still := board.Get(p.ID)
	require.True(t, still)
	require.Len(t, board.List(), 1, "the automatic answer did not settle it")
	require.NoError(t, board.Settle(p.ID, permission.Result{Source: permission.SourceDesk, Answers: []permission.Answered{{Question: p.Questions[0], Answer: permission.Answer{Labels: []string{"Redis"}}, Path: "questions[0]"}}}, permission.ByEditor()))
	assert.Equal(t, map[string]string{"Which database?": "Redis"}, sdkAnswers(t, h.AgentReply(t, "7")))
}

// --questions desk sends the client nothing: the board answers.
func TestQuestionsDeskNeverAsksTheClient(t *testing.T) {
	board := permission.NewBoard()
	h := newBridgeHarness(t, Options{Board: board, Routing: Routing{Questions: QuestionsDesk}})
	initialize(h, "acpx")
	h.OpenSession(t, "s1")
	h.Agent.Send(askDatabase)
	var p permission.Pending
	require.Eventually(t, func() bool {
		list := board.List()
		if len(list) == 1 {
			p = list[0]
		}
		return len(list) == 1
	}, 5*time.Second, 10*time.Millisecond)
	require.NoError(t, board.Settle(p.ID, permission.Result{Source: permission.SourceHub, Answers: []permission.Answered{{Question: p.Questions[0], Answer: permission.Answer{Labels: []string{"Redis"}}, Path: "questions[0]"}}}, permission.ByEditor()))
	assert.Equal(t, map[string]string{"Which database?": "Redis"}, sdkAnswers(t, h.AgentReply(t, "7")))
	if line, ok := h.Client.TryRecv(100 * time.Millisecond); ok {
		assert.NotContains(t, line, "session/request_permission")
	}
}
