package cursor_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/adapter/adaptertest"
	"github.com/askbridge/askbridge/adapter/dialect/cursor"
	"github.com/askbridge/askbridge/permission"
)

// A client that implements Cursor's methods keeps its own UI, and the set
// is watched meanwhile (adapter/watch.go): on the board from the moment it
// is forwarded, the first answer wins.

// cursorClient starts a bridge with a board and session s1 whose tool call
// tc1 Cursor announced.
func cursorClient(t *testing.T, opts adapter.Options) (*adaptertest.Harness, *permission.Board) {
	t.Helper()
	opts.Board = permission.NewBoard()
	h := adaptertest.New(t, opts)
	h.OpenSession(t, "s1")
	h.Agent.Send(announce("s1", "tc1"))
	h.Client.Recv()
	return h, opts.Board
}

func TestCursorQuestionIsOnTheBoardAndUnchangedAtTheClient(t *testing.T) {
	h, board := cursorClient(t, adapter.Options{})
	sent := cursorRequest(9, cursor.AskQuestion, cursorDB)
	h.Agent.Send(sent)
	assert.Equal(t, sent, h.Client.Recv())
	p := adaptertest.OnBoard(t, board)
	assert.Equal(t, "s1", p.SessionID)
	assert.Equal(t, "tc1", p.ToolCallID)
	require.Len(t, p.Questions, 1)
	assert.Equal(t, "Which database?", p.Questions[0].Question)
	assert.Equal(t, []permission.Option{{Label: "Postgres"}, {Label: "SQLite"}}, p.Questions[0].Options)
}

func TestCursorQuestionAnsweredAtTheDesk(t *testing.T) {
	h, board := cursorClient(t, adapter.Options{})
	h.Agent.Send(cursorRequest(9, cursor.AskQuestion, cursorDB))
	h.Client.Recv()
	p := adaptertest.OnBoard(t, board)
	require.NoError(t, board.Settle(p.ID, permission.Result{Source: permission.SourceDesk, Answers: []permission.Answered{
		{Question: p.Questions[0], Answer: permission.Answer{Labels: []string{"SQLite"}}, Path: "questions[0]"}}}, permission.ByEditor()))
	assert.JSONEq(t, `{"outcome":{"outcome":"answered","answers":[{"questionId":"db","selectedOptionIds":["lite"]}]}}`, string(h.AgentReply(t, "9").Result))
	assert.JSONEq(t, `{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":9}}`, h.Client.Recv())
	// The client answers anyway: the agent never sees it.
	h.Client.Send(`{"jsonrpc":"2.0","id":9,"result":{"outcome":{"outcome":"cancelled"}}}`)
	h.Client.Send(`{"jsonrpc":"2.0","method":"pong/after"}`)
	assert.Equal(t, "pong/after", adaptertest.Decode(t, h.Agent.Recv()).Method, "the late answer was dropped")
	assert.Equal(t, permission.SourceDesk, adaptertest.Settled(t, board, p.ID).Result.Source)
}

func TestCursorQuestionAnsweredInTheClient(t *testing.T) {
	h, board := cursorClient(t, adapter.Options{})
	h.Agent.Send(cursorRequest(9, cursor.AskQuestion, cursorDB))
	h.Client.Recv()
	p := adaptertest.OnBoard(t, board)
	resp := `{"jsonrpc":"2.0","id":9,"result":{"outcome":{"outcome":"answered","answers":[{"questionId":"db","selectedOptionIds":["pg"]}]}}}`
	h.Client.Send(resp)
	assert.Equal(t, resp, h.Agent.Recv())
	done := adaptertest.Settled(t, board, p.ID)
	assert.Equal(t, permission.StateAnswered, done.State)
	assert.Equal(t, permission.SourceClient, done.Result.Source)
	require.Len(t, done.Result.Answers, 1)
	assert.Equal(t, []string{"Postgres"}, done.Result.Answers[0].Answer.Labels)
	assert.Empty(t, board.List())
}

func TestCursorQuestionTimesOutWhileTheClientHasIt(t *testing.T) {
	h, board := cursorClient(t, adapter.Options{QuestionTimeout: 150 * time.Millisecond, OnTimeout: adapter.TimeoutEnd})
	h.Agent.Send(cursorRequest(9, cursor.AskQuestion, cursorDB))
	h.Client.Recv()
	p := adaptertest.OnBoard(t, board)
	require.NotNil(t, p.Deadline)
	assert.JSONEq(t, `{"outcome":{"outcome":"skipped","reason":"`+cursor.TimeoutReason+`"}}`, string(h.AgentReply(t, "9").Result))
	assert.Contains(t, h.Client.Recv(), `"method":"$/cancel_request"`)
	assert.Equal(t, permission.StateTimeout, adaptertest.Settled(t, board, p.ID).State)
}

// The client does not know the method: askbridge asks with permission
// requests, on the set already on the board; it is listed once.
func TestCursorQuestionDeclinedByTheClientIsAskedOnTheSameTicket(t *testing.T) {
	h, board := cursorClient(t, adapter.Options{})
	h.Agent.Send(cursorRequest(9, cursor.AskQuestion, cursorDB))
	p := adaptertest.OnBoard(t, board)
	h.UnknownMethod(t, cursor.AskQuestion)
	req, _ := h.NextRequest(t, "session/request_permission")
	assert.Contains(t, string(req.Params), `"toolCallId":"tc1"`)
	assert.Equal(t, []permission.Pending{p}, board.List(), "one set on the board")
	h.Answer(t, req, adaptertest.Pick("SQLite"))
	assert.JSONEq(t, `{"outcome":{"outcome":"answered","answers":[{"questionId":"db","selectedOptionIds":["lite"]}]}}`, string(h.AgentReply(t, "9").Result))
	done := adaptertest.Settled(t, board, p.ID)
	assert.Equal(t, permission.SourceClient, done.Result.Source)
	hist, _ := board.History("s1")
	assert.Len(t, hist, 1, "asked once")
}

// Declined, then answered at the desk: the permission request is withdrawn
// as for any set askbridge asks, and the client gets no $/cancel_request
// for the request it declined.
func TestCursorQuestionDeclinedThenAnsweredAtTheDesk(t *testing.T) {
	h, board := cursorClient(t, adapter.Options{})
	h.Agent.Send(cursorRequest(9, cursor.AskQuestion, cursorDB))
	p := adaptertest.OnBoard(t, board)
	h.UnknownMethod(t, cursor.AskQuestion)
	req, _ := h.NextRequest(t, "session/request_permission")
	require.NoError(t, board.Settle(p.ID, permission.Result{Source: permission.SourceDesk, Answers: []permission.Answered{
		{Question: p.Questions[0], Answer: permission.Answer{Labels: []string{"Postgres"}}, Path: "questions[0]"}}}, permission.ByEditor()))
	assert.JSONEq(t, `{"outcome":{"outcome":"answered","answers":[{"questionId":"db","selectedOptionIds":["pg"]}]}}`, string(h.AgentReply(t, "9").Result))
	h.Agent.Send(`{"jsonrpc":"2.0","method":"probe/after"}`)
	for {
		m := adaptertest.Decode(t, h.Client.Recv())
		if m.Method == "probe/after" {
			break
		}
		if m.Method == "$/cancel_request" {
			assert.JSONEq(t, `{"requestId":`+string(req.ID)+`}`, string(m.Params), "only the permission request is withdrawn")
		}
	}
}

// A plan the client reviews itself is on the board too.
func TestCursorPlanReviewedInTheClientIsOnTheBoard(t *testing.T) {
	h, board := cursorClient(t, adapter.Options{})
	h.Agent.Send(cursorRequest(9, cursor.CreatePlan, `{"toolCallId":"tc1","name":"Build the app","plan":"1. Create the server."}`))
	h.Client.Recv()
	p := adaptertest.OnBoard(t, board)
	assert.Equal(t, "Build the app", p.Questions[0].Header)
	resp := `{"jsonrpc":"2.0","id":9,"result":{"outcome":{"outcome":"rejected","reason":"Use Postgres"}}}`
	h.Client.Send(resp)
	assert.Equal(t, resp, h.Agent.Recv())
	done := adaptertest.Settled(t, board, p.ID)
	assert.Equal(t, permission.Answer{Labels: []string{"Reject"}, Other: true, Custom: "Use Postgres"}, done.Result.Answers[0].Answer)
}

// To-dos are no question: they never reach the board.
func TestCursorTodosAreNotOnTheBoard(t *testing.T) {
	h, board := cursorClient(t, adapter.Options{})
	h.Agent.Send(cursorRequest(9, cursor.UpdateTodos, `{"toolCallId":"tc1","merge":false,"todos":[{"id":"1","content":"Write it","status":"pending"}]}`))
	fwd, _ := h.NextRequest(t, cursor.UpdateTodos)
	h.Answer(t, fwd, `{}`)
	assert.JSONEq(t, `{}`, string(h.AgentReply(t, "9").Result))
	hist, _ := board.History("s1")
	assert.Empty(t, hist)
}

// Over the turn's question limit, the client still has the request, but
// askbridge will not ask it: declined, Cursor hears why; it is never on
// the board.
func TestCursorQuestionOverTheRoundLimit(t *testing.T) {
	h, board := cursorClient(t, adapter.Options{MaxRounds: 1})
	h.Agent.Send(cursorRequest(9, cursor.AskQuestion, cursorDB))
	first := adaptertest.OnBoard(t, board)
	h.Agent.Send(cursorRequest(10, cursor.AskQuestion, cursorDB))
	h.Client.Recv()
	fwd, _ := h.NextRequest(t, cursor.AskQuestion)
	require.Equal(t, "10", string(fwd.ID))
	h.Client.Send(`{"jsonrpc":"2.0","id":10,"error":{"code":-32601,"message":"Method not found"}}`)
	assert.JSONEq(t, `{"outcome":{"outcome":"skipped","reason":"question limit of 1 reached in this turn; continue with what you know or ask in the chat"}}`, string(h.AgentReply(t, "10").Result))
	assert.Equal(t, []permission.Pending{first}, board.List())
}

// The agent withdraws a question askbridge asks for a declining client:
// the set is cancelled, and Cursor gets its cancelled outcome.
func TestCursorQuestionDeclinedThenWithdrawnByTheAgent(t *testing.T) {
	h, board := cursorClient(t, adapter.Options{})
	h.Agent.Send(cursorRequest(9, cursor.AskQuestion, cursorDB))
	p := adaptertest.OnBoard(t, board)
	h.UnknownMethod(t, cursor.AskQuestion)
	h.NextRequest(t, "session/request_permission")
	h.Agent.Send(`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":9}}`)
	assert.JSONEq(t, `{"outcome":{"outcome":"cancelled"}}`, string(h.AgentReply(t, "9").Result))
	assert.Equal(t, permission.StateCancelled, adaptertest.Settled(t, board, p.ID).State)
}

// Declined before askbridge has put the set on the board, or after: it is
// asked once, on one card, either way.
func TestCursorQuestionDeclinedAtOnceIsListedOnce(t *testing.T) {
	for i := range 20 {
		h, board := cursorClient(t, adapter.Options{})
		id := 9 + i
		h.Agent.Send(cursorRequest(id, cursor.AskQuestion, cursorDB))
		h.UnknownMethod(t, cursor.AskQuestion)
		req, _ := h.NextRequest(t, "session/request_permission")
		h.Answer(t, req, adaptertest.Pick("Postgres"))
		assert.Contains(t, string(h.AgentReply(t, fmt.Sprint(id)).Result), `"selectedOptionIds":["pg"]`)
		hist, _ := board.History("s1")
		require.Len(t, hist, 1)
		assert.Equal(t, permission.StateAnswered, hist[0].State)
	}
}
