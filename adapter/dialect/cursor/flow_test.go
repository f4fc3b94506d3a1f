package cursor_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/adapter/adaptertest"
	"github.com/askbridge/askbridge/adapter/dialect/cursor"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/adapter/relay/relaytest"
)

// cursorDB is a cursor/ask_question as Cursor documents it: one question,
// option ids distinct from labels.
const cursorDB = `{"toolCallId":"tc1","title":"Storage","questions":[{"id":"db","prompt":"Which database?","options":[{"id":"pg","label":"Postgres"},{"id":"lite","label":"SQLite"}]}]}`

// cursorRequest is a Cursor request as the agent sends it: no sessionId.
func cursorRequest(id int, method, params string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, params)
}

// announce is Cursor's tool call for a request, in session.
func announce(session, toolCallID string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":%q,"update":{"sessionUpdate":"tool_call","toolCallId":%q,"title":"Ask question","kind":"other","status":"pending"}}}`, session, toolCallID)
}

func TestCursorQuestionGoesToTheSessionOfItsToolCall(t *testing.T) {
	h := adaptertest.New(t, adapter.Options{})
	h.OpenSession(t, "s1")
	h.OpenSession(t, "s2") // s2 is now the active one
	h.Agent.Send(announce("s1", "tc1"))
	h.Agent.Send(cursorRequest(9, cursor.AskQuestion, cursorDB))
	h.UnknownMethod(t, cursor.AskQuestion)
	req, _ := h.NextRequest(t, "session/request_permission")
	assert.Contains(t, string(req.Params), `"sessionId":"s1"`)
	assert.Contains(t, string(req.Params), `"toolCallId":"tc1"`)
	assert.Contains(t, string(req.Params), `"title":"Storage"`)
	h.Answer(t, req, adaptertest.Pick("SQLite"))
	reply := h.AgentReply(t, "9")
	require.Nil(t, reply.Error)
	assert.JSONEq(t, `{"outcome":{"outcome":"answered","answers":[{"questionId":"db","selectedOptionIds":["lite"]}]}}`, string(reply.Result))
}

func TestCursorQuestionWithAnUnseenToolCallIsShownOnAToolCallOfAskbridges(t *testing.T) {
	h := adaptertest.New(t, adapter.Options{})
	h.OpenSession(t, "s1")
	h.Agent.Send(cursorRequest(9, cursor.AskQuestion, cursorDB))
	h.UnknownMethod(t, cursor.AskQuestion)
	req, notes := h.NextRequest(t, "session/request_permission")
	require.NotEmpty(t, notes)
	assert.Contains(t, string(notes[0].Params), `"sessionUpdate":"tool_call"`, "the tool call is started before it is updated")
	assert.Contains(t, string(req.Params), `"sessionId":"s1"`)
	assert.Contains(t, string(req.Params), `"toolCallId":"askbridge-`)
	h.Answer(t, req, `{"outcome":{"outcome":"cancelled"}}`)
	assert.JSONEq(t, `{"outcome":{"outcome":"cancelled"}}`, string(h.AgentReply(t, "9").Result))
}

func TestCursorClientThatImplementsTheMethodKeepsIt(t *testing.T) {
	h := adaptertest.New(t, adapter.Options{})
	h.OpenSession(t, "s1")
	h.Agent.Send(cursorRequest(9, cursor.AskQuestion, cursorDB))
	fwd, _ := h.NextRequest(t, cursor.AskQuestion)
	own := `{"outcome":{"outcome":"answered","answers":[{"questionId":"db","selectedOptionIds":["pg"]}]}}`
	h.Answer(t, fwd, own)
	assert.JSONEq(t, own, string(h.AgentReply(t, "9").Result))
	h.Agent.Send(`{"jsonrpc":"2.0","method":"probe/after"}`)
	assert.Equal(t, "probe/after", adaptertest.Decode(t, h.Client.Recv()).Method, "nothing else was asked")
}

func TestCursorInvalidQuestionsGetInvalidParams(t *testing.T) {
	h := adaptertest.New(t, adapter.Options{})
	h.OpenSession(t, "s1")
	h.Agent.Send(cursorRequest(9, cursor.AskQuestion, `{"toolCallId":"tc1","questions":[{"id":"q","prompt":"Only one?","options":[{"id":"a","label":"A"}]}]}`))
	h.UnknownMethod(t, cursor.AskQuestion)
	reply := h.AgentReply(t, "9")
	require.NotNil(t, reply.Error)
	assert.Equal(t, relay.CodeInvalidParams, reply.Error.Code)
	assert.Contains(t, reply.Error.Message, "questions[0].options: must have 2-4 items")

	h.Agent.Send(cursorRequest(10, cursor.CreatePlan, `{"toolCallId":"tc2","plan":""}`))
	h.UnknownMethod(t, cursor.CreatePlan)
	reply = h.AgentReply(t, "10")
	require.NotNil(t, reply.Error)
	assert.Equal(t, "askbridge: cursor/create_plan: plan: required", reply.Error.Message)

	h.Agent.Send(cursorRequest(11, cursor.UpdateTodos, `{"toolCallId":"tc3","todos":"none","merge":false}`))
	h.UnknownMethod(t, cursor.UpdateTodos)
	reply = h.AgentReply(t, "11")
	require.NotNil(t, reply.Error)
	assert.Contains(t, reply.Error.Message, "askbridge: cursor/update_todos params: json: cannot unmarshal string")
}

func TestCursorUnansweredQuestionIsSkippedWithAReason(t *testing.T) {
	h := adaptertest.New(t, adapter.Options{QuestionTimeout: 100 * time.Millisecond, OnTimeout: adapter.TimeoutEnd})
	h.OpenSession(t, "s1")
	h.Agent.Send(cursorRequest(9, cursor.AskQuestion, cursorDB))
	h.UnknownMethod(t, cursor.AskQuestion)
	h.NextRequest(t, "session/request_permission")
	assert.JSONEq(t, `{"outcome":{"outcome":"skipped","reason":"`+cursor.TimeoutReason+`"}}`, string(h.AgentReply(t, "9").Result))
}

func TestCursorQuestionIsOneFormForAClientThatRendersForms(t *testing.T) {
	h := adaptertest.New(t, adapter.Options{Advertise: true})
	h.Client.Send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"elicitation":{"form":{}}}}}`)
	h.Agent.Recv()
	h.OpenSession(t, "s1")
	h.Agent.Send(cursorRequest(9, cursor.AskQuestion, cursorDB))
	h.UnknownMethod(t, cursor.AskQuestion)
	form, _ := h.NextRequest(t, "elicitation/create")
	assert.Contains(t, string(form.Params), `"message":"Which database?"`)
	h.Answer(t, form, `{"action":"accept","content":{"question_0":"Postgres"}}`)
	assert.JSONEq(t, `{"outcome":{"outcome":"answered","answers":[{"questionId":"db","selectedOptionIds":["pg"]}]}}`, string(h.AgentReply(t, "9").Result))
}

func TestCursorPlanIsAcceptOrReject(t *testing.T) {
	h := adaptertest.New(t, adapter.Options{})
	h.OpenSession(t, "s1")
	h.Agent.Send(announce("s1", "plan1"))
	h.Agent.Send(cursorRequest(9, cursor.CreatePlan, `{"toolCallId":"plan1","name":"Build the app","plan":"1. Create the server.","todos":[{"id":"t1","content":"Create the server","status":"pending"}]}`))
	h.UnknownMethod(t, cursor.CreatePlan)
	req, _ := h.NextRequest(t, "session/request_permission")
	assert.Contains(t, string(req.Params), `"title":"Build the app"`)
	assert.Contains(t, string(req.Params), `1. Create the server.\n\nTo do:\n- Create the server\n  - Accept: start on this plan`)
	h.Answer(t, req, `{"outcome":{"outcome":"selected","optionId":"__other__","_meta":{"customText":"Use Postgres"}}}`)
	assert.JSONEq(t, `{"outcome":{"outcome":"rejected","reason":"Use Postgres"}}`, string(h.AgentReply(t, "9").Result))
}

func TestCursorTodosBecomeAPlanUpdate(t *testing.T) {
	h := adaptertest.New(t, adapter.Options{})
	h.OpenSession(t, "s1")
	h.Agent.Send(cursorRequest(9, cursor.UpdateTodos, `{"toolCallId":"todo1","merge":false,"todos":[{"id":"1","content":"Write the handler","status":"completed"},{"id":"2","content":"Cover the edge case","status":"pending"}]}`))
	h.UnknownMethod(t, cursor.UpdateTodos)
	plan := adaptertest.Decode(t, h.Client.Recv())
	assert.JSONEq(t, `{"sessionId":"s1","update":{"sessionUpdate":"plan","entries":[{"content":"Write the handler","priority":"medium","status":"completed"},{"content":"Cover the edge case","priority":"medium","status":"pending"}]}}`, string(plan.Params))
	assert.JSONEq(t, `{}`, string(h.AgentReply(t, "9").Result))

	// Sent as a notification, it goes on to the client and is shown too.
	note := `{"jsonrpc":"2.0","method":"cursor/update_todos","params":{"toolCallId":"todo2","merge":true,"todos":[{"id":"2","content":"Cover the edge case","status":"in_progress"}]}}`
	h.Agent.Send(note)
	got := []string{h.Client.Recv(), h.Client.Recv()}
	assert.Contains(t, got, note)
	assert.True(t, strings.Contains(strings.Join(got, ""), `"entries":[{"content":"Write the handler","priority":"medium","status":"completed"},{"content":"Cover the edge case","priority":"medium","status":"in_progress"}]`), "merged by id: %v", got)
}

// Cursor's fallback: a client that answers -32601 twice makes askbridge
// ask once, and the agent gets one response, askbridge's answer.
func TestCursorClientAnsweringTwiceGetsTheAgentOneResponse(t *testing.T) {
	h := adaptertest.New(t, adapter.Options{})
	h.OpenSession(t, "s1")
	h.Agent.Send(cursorRequest(9, cursor.AskQuestion, cursorDB))
	fwd, _ := h.NextRequest(t, cursor.AskQuestion)
	notFound := `{"jsonrpc":"2.0","id":` + string(fwd.ID) + `,"error":{"code":-32601,"message":"Method not found"}}`
	h.Client.Send(notFound)
	h.Client.Send(notFound)
	req, _ := h.NextRequest(t, "session/request_permission")
	h.Answer(t, req, adaptertest.Pick("SQLite"))
	reply := relaytest.Decode(t, h.Agent.Recv())
	assert.Equal(t, "9", string(reply.ID))
	require.Nil(t, reply.Error, "the client's second -32601 reached the agent")
	assert.JSONEq(t, `{"outcome":{"outcome":"answered","answers":[{"questionId":"db","selectedOptionIds":["lite"]}]}}`, string(reply.Result))
	h.Harness.NothingElseToAgent(t)
}

// Cursor's fallback: a client that leaves while Cursor's request is
// forwarded to it leaves the agent with an error, not waiting.
func TestCursorRequestForwardedToAClientThatLeavesGetsAnError(t *testing.T) {
	h := adaptertest.New(t, adapter.Options{})
	h.OpenSession(t, "s1")
	h.Agent.Send(cursorRequest(9, cursor.AskQuestion, cursorDB))
	h.NextRequest(t, cursor.AskQuestion)
	require.NoError(t, h.Client.Close())
	reply := h.AgentReply(t, "9")
	require.NotNil(t, reply.Error)
	assert.Equal(t, relay.CodeInternalError, reply.Error.Code)
}
