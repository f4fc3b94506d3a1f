package adapter

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter/dialect/claude/claudetest"
	"github.com/askbridge/askbridge/adapter/dialect/qwen/qwentest"
	"github.com/askbridge/askbridge/permission"
)

// The dialects' lines the bridge's tests send (their own test packages).
const (
	claudeSingle = claudetest.Single
	qwenAsk      = qwentest.Ask
)

func TestInitializeAdvertisesFormElicitationAndKeepsTheRest(t *testing.T) {
	h := newBridgeHarness(t, Options{Advertise: true})
	h.Client.Send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":true},"_meta":{"zed":1}},"clientInfo":{"name":"zed"}}}`)
	got := decode(t, h.Agent.Recv())
	assert.JSONEq(t, `{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":true},"_meta":{"zed":1,"qwen.askUserQuestion":true,"kiro":{"userInput":true}},"elicitation":{"form":{},"url":{}}},"clientInfo":{"name":"zed"}}`, string(got.Params))
	assert.False(t, h.bridge.ClientRendersForms())

	h2 := newBridgeHarness(t, Options{Advertise: false})
	line := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`
	h2.Client.Send(line)
	assert.Equal(t, line, h2.Agent.Recv())
}

func TestSessionCancelWhilePendingCancelsAndWithdraws(t *testing.T) {
	h := newBridgeHarness(t, Options{Advertise: true})
	h.OpenSession(t, "s1")
	h.Agent.Send(`{"jsonrpc":"2.0","id":5,"method":"_askbridge/ask","params":{"sessionId":"s1","questions":[{"question":"Which database?","header":"Database","options":[{"label":"Postgres"},{"label":"SQLite"}]}]}}`)
	req, _ := h.NextRequest(t, "session/request_permission")
	h.Client.Send(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s1"}}`)
	assert.JSONEq(t, `{"behavior":"deny","message":"User cancelled the question","interrupt":true}`, string(h.AgentReply(t, "5").Result))
	var withdrawn bool
	for !withdrawn {
		m := decode(t, h.Client.Recv())
		if m.Method == "$/cancel_request" {
			assert.JSONEq(t, fmt.Sprintf(`{"requestId":%s}`, req.ID), string(m.Params))
			withdrawn = true
		}
	}
}

func TestAgentCancelRequestWithdrawsTheQuestion(t *testing.T) {
	h := newBridgeHarness(t, Options{Advertise: true})
	h.OpenSession(t, "s1")
	h.Agent.Send(claudeSingle)
	req, _ := h.NextRequest(t, "session/request_permission")
	h.Agent.Send(`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":41}}`)
	assert.JSONEq(t, `{"action":"cancel"}`, string(h.AgentReply(t, "41").Result))
	for {
		m := decode(t, h.Client.Recv())
		if m.Method == "$/cancel_request" {
			assert.JSONEq(t, fmt.Sprintf(`{"requestId":%s}`, req.ID), string(m.Params))
			break
		}
	}
}

func TestTwoSessionsAskingAtOnceDoNotMix(t *testing.T) {
	h := newBridgeHarness(t, Options{Advertise: true})
	h.OpenSession(t, "s1")
	h.Agent.Send(`{"jsonrpc":"2.0","id":"a","method":"_askbridge/ask","params":{"sessionId":"s1","questions":[{"question":"Q one?","header":"One","options":[{"label":"A1"},{"label":"B1"}]}]}}`)
	h.Agent.Send(`{"jsonrpc":"2.0","id":"b","method":"_askbridge/ask","params":{"sessionId":"s2","questions":[{"question":"Q two?","header":"Two","options":[{"label":"A2"},{"label":"B2"}]}]}}`)
	reqs := map[string]rpc{}
	for len(reqs) < 2 {
		m := decode(t, h.Client.Recv())
		if m.Method == "session/request_permission" {
			var p struct{ SessionID string }
			json.Unmarshal(m.Params, &p)
			reqs[p.SessionID] = m
		}
	}
	h.Answer(t, reqs["s2"], pick("B2"))
	h.Answer(t, reqs["s1"], pick("A1"))
	got := map[string]string{}
	for len(got) < 2 {
		m := decode(t, h.Agent.Recv())
		if m.Result != nil {
			got[string(m.ID)] = string(m.Result)
		}
	}
	assert.Contains(t, got[`"a"`], `"Q one?":"A1"`)
	assert.Contains(t, got[`"b"`], `"Q two?":"B2"`)
}

func TestClientDisconnectCancelsPendingQuestions(t *testing.T) {
	h := newBridgeHarness(t, Options{Advertise: true})
	h.OpenSession(t, "s1")
	h.Agent.Send(claudeSingle)
	h.NextRequest(t, "session/request_permission")
	h.Client.Close()
	assert.JSONEq(t, `{"action":"cancel"}`, string(h.AgentReply(t, "41").Result))
}

func TestQuestionTimeoutAnswersTheRecommendedOption(t *testing.T) {
	h := newBridgeHarness(t, Options{Advertise: true, QuestionTimeout: 100 * time.Millisecond, OnTimeout: TimeoutRecommended})
	h.OpenSession(t, "s1")
	h.Agent.Send(`{"jsonrpc":"2.0","id":5,"method":"_askbridge/ask","params":{"sessionId":"s1","questions":[{"question":"Which?","header":"Pick","options":[{"label":"A"},{"label":"B (Recommended)"}]}]}}`)
	req, _ := h.NextRequest(t, "session/request_permission")
	assert.Contains(t, string(h.AgentReply(t, "5").Result), `"Which?":"B (Recommended)"`)
	for {
		m := decode(t, h.Client.Recv())
		if m.Method == "$/cancel_request" {
			assert.Contains(t, string(m.Params), string(req.ID))
			break
		}
	}
}

func TestRoundLimitRefusesFurtherQuestionsInTheTurn(t *testing.T) {
	h := newBridgeHarness(t, Options{Advertise: true, MaxRounds: 1})
	h.OpenSession(t, "s1")
	ask := func(id int) {
		h.Agent.Send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"_askbridge/ask","params":{"sessionId":"s1","questions":[{"question":"Q%d?","header":"H","options":[{"label":"A"},{"label":"B"}]}]}}`, id, id))
	}
	ask(1)
	req, _ := h.NextRequest(t, "session/request_permission")
	h.Answer(t, req, pick("A"))
	h.AgentReply(t, "1")
	ask(2)
	reply := h.AgentReply(t, "2")
	assert.Contains(t, string(reply.Result), "question limit of 1 reached in this turn")
	assert.True(t, strings.Contains(h.Client.Recv()+h.Client.Recv(), "question limit"), "the client is told")
}

func TestRoundsAreNumberedAcrossTurnsAndTheLimitResetsPerTurn(t *testing.T) {
	h := newBridgeHarness(t, Options{Advertise: true, MaxRounds: 1})
	h.OpenSession(t, "s1")
	ask := func(id int) rpc {
		h.Agent.Send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"_askbridge/ask","params":{"sessionId":"s1","questions":[{"question":"Q%d?","header":"Pick","options":[{"label":"A"},{"label":"B"}]}]}}`, id, id))
		req, _ := h.NextRequest(t, "session/request_permission")
		h.Answer(t, req, pick("A"))
		h.AgentReply(t, fmt.Sprint(id))
		return req
	}
	first := ask(1)
	assert.Contains(t, string(first.Params), `"title":"Pick"`)
	h.Client.Send(`{"jsonrpc":"2.0","id":"p2","method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`)
	// A real agent asks only once it has the prompt.
	for decode(t, h.Agent.Recv()).Method != "session/prompt" {
	}
	second := ask(2)
	assert.Contains(t, string(second.Params), `"title":"Round 2 · Pick"`, "a new turn resets the limit, not the numbering")
}

func TestAnAgentAskingInALoopIsStoppedAtTheRoundLimit(t *testing.T) {
	h := newBridgeHarness(t, Options{Advertise: true, MaxRounds: 10})
	h.OpenSession(t, "s1")
	var titles []string
	for i := 1; i <= 12; i++ {
		h.Agent.Send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"_askbridge/ask","params":{"sessionId":"s1","questions":[{"question":"Again %d?","header":"Loop","options":[{"label":"Yes"},{"label":"No"}]}]}}`, i, i))
		if i <= 10 {
			req, _ := h.NextRequest(t, "session/request_permission")
			var p struct {
				ToolCall struct{ Title string } `json:"toolCall"`
			}
			json.Unmarshal(req.Params, &p)
			titles = append(titles, p.ToolCall.Title)
			h.Answer(t, req, pick("Yes"))
			assert.Contains(t, string(h.AgentReply(t, fmt.Sprint(i)).Result), `"allow"`)
			continue
		}
		reply := h.AgentReply(t, fmt.Sprint(i))
		assert.JSONEq(t, `{"behavior":"deny","message":"question limit of 10 reached in this turn; continue with what you know or ask in the chat","interrupt":false}`, string(reply.Result))
	}
	assert.Equal(t, "Loop", titles[0])
	assert.Equal(t, "Round 10 · Loop", titles[9])
}

func TestAnAnswerFromTheBoardWinsWithdrawsAndIsShown(t *testing.T) {
	h := newBridgeHarness(t, Options{Advertise: true})
	h.OpenSession(t, "s1")
	h.Agent.Send(`{"jsonrpc":"2.0","id":8,"method":"_askbridge/ask","params":{"sessionId":"s1","questions":[{"question":"Which?","header":"Pick","options":[{"label":"A"},{"label":"B"}]}]}}`)
	req, _ := h.NextRequest(t, "session/request_permission")
	pending := h.bridge.board.List()
	require.Len(t, pending, 1)
	q := pending[0].Questions[0]
	require.NoError(t, h.bridge.board.Settle(pending[0].ID, permission.Result{Answers: []permission.Answered{{Question: q, Answer: permission.Answer{Labels: []string{"B"}}, Index: 0}}}, permission.ByEditor()))
	assert.Contains(t, string(h.AgentReply(t, "8").Result), `"Which?":"B"`)
	var withdrawn, shown bool
	for !withdrawn || !shown {
		m := decode(t, h.Client.Recv())
		switch {
		case m.Method == "$/cancel_request":
			assert.Contains(t, string(m.Params), string(req.ID))
			withdrawn = true
		case m.Method == "session/update" && strings.Contains(string(m.Params), "Pick: B"):
			assert.Contains(t, string(m.Params), `"status":"completed"`)
			shown = true
		}
	}
	assert.ErrorIs(t, h.bridge.board.Settle(pending[0].ID, permission.Result{}, permission.ByEditor()), permission.ErrResolved, "the first answer wins")
}
