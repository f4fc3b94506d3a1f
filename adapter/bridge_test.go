package adapter

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/adapter/relay/relaytest"
	"github.com/askbridge/askbridge/permission"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bridgeHarness is a relay with the bridge installed, between a fake client
// and a fake agent.
type bridgeHarness struct {
	*relaytest.Harness
	bridge *Bridge
}

func newBridgeHarness(t *testing.T, opts Options) *bridgeHarness {
	if opts.Limits == (permission.Limits{}) {
		opts.Limits = permission.DefaultLimits()
	}
	b := NewBridge(opts)
	h := newHarness(t, func(r *relay.Relay) { b.Setup(r) })
	return &bridgeHarness{Harness: h, bridge: b}
}

// rpc is a decoded JSON-RPC message.
type rpc = relaytest.Msg

var decode = relaytest.Decode

// nextRequest reads client-bound lines until a request with method comes,
// returning it and the notifications seen before it.
func (h *bridgeHarness) nextRequest(t *testing.T, method string) (rpc, []rpc) {
	t.Helper()
	var notes []rpc
	for {
		m := decode(t, h.Client.Recv())
		if m.Method == method && m.ID != nil {
			return m, notes
		}
		notes = append(notes, m)
	}
}

// answer sends the client's response to request req.
func (h *bridgeHarness) answer(t *testing.T, req rpc, result string) {
	t.Helper()
	h.Client.Send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, result))
}

func pick(label string) string {
	return fmt.Sprintf(`{"outcome":{"outcome":"selected","optionId":%q}}`, label)
}

// agentReply reads the agent-bound lines until the response to id.
func (h *bridgeHarness) agentReply(t *testing.T, id string) rpc {
	t.Helper()
	for {
		m := decode(t, h.Agent.Recv())
		if string(m.ID) == id && m.Method == "" {
			return m
		}
	}
}

func (h *bridgeHarness) openSession(t *testing.T, id string) {
	t.Helper()
	h.Client.Send(`{"jsonrpc":"2.0","id":"new","method":"session/new","params":{"cwd":"/tmp/p","mcpServers":[]}}`)
	h.Agent.Recv()
	h.Agent.Send(fmt.Sprintf(`{"jsonrpc":"2.0","id":"new","result":{"sessionId":%q}}`, id))
	h.Client.Recv()
	h.Client.Send(fmt.Sprintf(`{"jsonrpc":"2.0","id":"p1","method":"session/prompt","params":{"sessionId":%q,"prompt":[]}}`, id))
	h.Agent.Recv()
}

const claudeSingle = `{"jsonrpc":"2.0","id":41,"method":"elicitation/create","params":{"mode":"form","sessionId":"s1","toolCallId":"toolu_1","message":"Which database?","requestedSchema":{"type":"object","properties":{"question_0":{"type":"string","title":"Database","oneOf":[{"const":"Postgres","title":"Postgres","description":"relational"},{"const":"SQLite","title":"SQLite","description":"embedded"}]},"question_0_custom":{"type":"string","title":"Other","description":"Type your own answer (optional)."}}}}}`

func TestInitializeAdvertisesFormElicitationAndKeepsTheRest(t *testing.T) {
	h := newBridgeHarness(t, Options{Advertise: true})
	h.Client.Send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":true},"_meta":{"zed":1}},"clientInfo":{"name":"zed"}}}`)
	got := decode(t, h.Agent.Recv())
	assert.JSONEq(t, `{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":true},"_meta":{"zed":1,"qwen.askUserQuestion":true},"elicitation":{"form":{},"url":{}}},"clientInfo":{"name":"zed"}}`, string(got.Params))
	assert.False(t, h.bridge.ClientRendersForms())

	h2 := newBridgeHarness(t, Options{Advertise: false})
	line := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`
	h2.Client.Send(line)
	assert.Equal(t, line, h2.Agent.Recv())
}

func TestElicitationPassesThroughToAClientThatRendersForms(t *testing.T) {
	h := newBridgeHarness(t, Options{Advertise: true})
	h.Client.Send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"elicitation":{"form":{"x":1}}}}}`)
	got := decode(t, h.Agent.Recv())
	assert.JSONEq(t, `{"protocolVersion":1,"clientCapabilities":{"elicitation":{"form":{"x":1},"url":{}},"_meta":{"qwen.askUserQuestion":true}}}`, string(got.Params))
	assert.True(t, h.bridge.ClientRendersForms())
	h.Agent.Send(claudeSingle)
	assert.Equal(t, claudeSingle, h.Client.Recv())
}

func TestElicitationBecomesPermissionRequests(t *testing.T) {
	h := newBridgeHarness(t, Options{Advertise: true})
	h.Client.Send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`)
	h.Agent.Recv()
	h.openSession(t, "s1")
	h.Agent.Send(claudeSingle)
	req, notes := h.nextRequest(t, "session/request_permission")
	require.NotEmpty(t, notes, "the question is shown as a tool call first")
	assert.Contains(t, string(notes[0].Params), "Which database?")
	var p struct {
		SessionID string `json:"sessionId"`
		ToolCall  struct {
			ToolCallID string `json:"toolCallId"`
			Kind       string `json:"kind"`
			Title      string `json:"title"`
		} `json:"toolCall"`
		Options []struct {
			OptionID string `json:"optionId"`
			Name     string `json:"name"`
			Kind     string `json:"kind"`
		} `json:"options"`
	}
	require.NoError(t, json.Unmarshal(req.Params, &p))
	assert.Equal(t, "s1", p.SessionID)
	assert.Equal(t, "toolu_1", p.ToolCall.ToolCallID)
	assert.Equal(t, "think", p.ToolCall.Kind)
	assert.Equal(t, "Database", p.ToolCall.Title)
	require.Len(t, p.Options, 3)
	assert.Equal(t, "Postgres", p.Options[0].OptionID)
	assert.Equal(t, "Postgres - relational", p.Options[0].Name)
	assert.Equal(t, "__other__", p.Options[2].OptionID)
	h.answer(t, req, pick("Postgres"))
	reply := h.agentReply(t, "41")
	assert.JSONEq(t, `{"action":"accept","content":{"question_0":"Postgres"}}`, string(reply.Result))
}

func TestElicitationOtherWithTextFillsTheCompanionField(t *testing.T) {
	h := newBridgeHarness(t, Options{Advertise: true})
	h.openSession(t, "s1")
	h.Agent.Send(claudeSingle)
	req, _ := h.nextRequest(t, "session/request_permission")
	h.answer(t, req, `{"outcome":{"outcome":"selected","optionId":"__other__","_meta":{"customText":"MariaDB"}}}`)
	reply := h.agentReply(t, "41")
	assert.JSONEq(t, `{"action":"accept","content":{"question_0_custom":"MariaDB"}}`, string(reply.Result))
}

func TestElicitationCancelledOutcomeCancels(t *testing.T) {
	h := newBridgeHarness(t, Options{Advertise: true})
	h.openSession(t, "s1")
	h.Agent.Send(claudeSingle)
	req, _ := h.nextRequest(t, "session/request_permission")
	h.answer(t, req, `{"outcome":{"outcome":"cancelled"}}`)
	assert.JSONEq(t, `{"action":"cancel"}`, string(h.agentReply(t, "41").Result))
}

func TestElicitationMultiSelectAndBooleanFieldsAreTypedPerSchema(t *testing.T) {
	h := newBridgeHarness(t, Options{Advertise: true})
	h.openSession(t, "s1")
	h.Agent.Send(`{"jsonrpc":"2.0","id":"e2","method":"elicitation/create","params":{"mode":"form","sessionId":"s1","message":"Setup","requestedSchema":{"type":"object","properties":{"langs":{"type":"array","title":"Languages","description":"Which languages?","items":{"anyOf":[{"const":"go","title":"Go"},{"const":"rs","title":"Rust"},{"const":"py","title":"Python"}]}},"tests":{"type":"boolean","title":"Tests","description":"Write tests?"},"level":{"type":"integer","title":"Level","description":"How strict?"}},"required":["tests"]}}}`)
	req, _ := h.nextRequest(t, "session/request_permission")
	h.answer(t, req, `{"outcome":{"outcome":"selected","optionId":"Go","_meta":{"selectedOptionIds":["Go","Python"]}}}`)
	req, _ = h.nextRequest(t, "session/request_permission")
	assert.Contains(t, string(req.Params), `"optionId":"Yes"`)
	h.answer(t, req, pick("No"))
	req, _ = h.nextRequest(t, "session/request_permission")
	h.answer(t, req, `{"outcome":{"outcome":"selected","optionId":"__other__","_meta":{"customText":" 3 "}}}`)
	assert.JSONEq(t, `{"action":"accept","content":{"langs":["go","py"],"tests":false,"level":3}}`, string(h.agentReply(t, `"e2"`).Result))
}

func TestElicitationDeclinesWhenARequiredFieldCannotBeFilled(t *testing.T) {
	h := newBridgeHarness(t, Options{Advertise: true})
	h.openSession(t, "s1")
	h.Agent.Send(`{"jsonrpc":"2.0","id":9,"method":"elicitation/create","params":{"mode":"form","sessionId":"s1","message":"Name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string","title":"Name"}},"required":["name"]}}}`)
	req, _ := h.nextRequest(t, "session/request_permission")
	// A client without customText support can only pick Other without text.
	h.answer(t, req, pick("__other__"))
	assert.JSONEq(t, `{"action":"decline"}`, string(h.agentReply(t, "9").Result))
}

const qwenAsk = `{"jsonrpc":"2.0","id":77,"method":"session/request_permission","params":{"sessionId":"s1","options":[{"optionId":"proceed_once","name":"Submit","kind":"allow_once"},{"optionId":"cancel","name":"Cancel","kind":"reject_once"}],"toolCall":{"toolCallId":"call_q","title":"ask_user_question","kind":"other","rawInput":{"questions":[{"question":"Which database?","header":"Database","options":[{"label":"Postgres","description":"relational"},{"label":"SQLite","description":"embedded"}],"multiSelect":false},{"question":"Which languages?","header":"Languages","options":[{"label":"Go","description":""},{"label":"Rust","description":""},{"label":"Python","description":""}],"multiSelect":true}]}}}}`

func TestQwenQuestionsAreAnsweredThroughTheTopLevelAnswersField(t *testing.T) {
	h := newBridgeHarness(t, Options{Advertise: true})
	h.openSession(t, "s1")
	h.Agent.Send(qwenAsk)
	req, _ := h.nextRequest(t, "session/request_permission")
	assert.Contains(t, string(req.Params), `"toolCallId":"call_q"`)
	assert.Contains(t, string(req.Params), `(1/2)`)
	h.answer(t, req, pick("SQLite"))
	// Multi-select without selectedOptionIds: asked again with Done until Done.
	req, _ = h.nextRequest(t, "session/request_permission")
	h.answer(t, req, pick("Rust"))
	req, _ = h.nextRequest(t, "session/request_permission")
	assert.Contains(t, string(req.Params), `"__done__"`)
	assert.NotContains(t, string(req.Params), `"optionId":"Rust"`)
	h.answer(t, req, pick("Go"))
	req, _ = h.nextRequest(t, "session/request_permission")
	h.answer(t, req, pick("__done__"))
	assert.JSONEq(t, `{"outcome":{"outcome":"selected","optionId":"proceed_once"},"answers":{"0":"SQLite","1":"Go, Rust"}}`, string(h.agentReply(t, "77").Result))
}

func TestQwenCancelAtTheFirstOfSeveralQuestionsShowsNoMore(t *testing.T) {
	h := newBridgeHarness(t, Options{Advertise: true})
	h.openSession(t, "s1")
	h.Agent.Send(qwenAsk)
	req, _ := h.nextRequest(t, "session/request_permission")
	h.answer(t, req, `{"outcome":{"outcome":"cancelled"}}`)
	assert.JSONEq(t, `{"outcome":{"outcome":"cancelled"}}`, string(h.agentReply(t, "77").Result))
	h.Client.Send(`{"jsonrpc":"2.0","method":"_probe"}`)
	for {
		m := decode(t, h.Agent.Recv())
		if m.Method == "_probe" {
			break
		}
	}
	if line, ok := h.Client.TryRecv(100 * time.Millisecond); ok {
		assert.NotContains(t, line, "session/request_permission", "no further question after a cancel")
	}
}

func TestAskExtensionReturnsTheSDKResult(t *testing.T) {
	h := newBridgeHarness(t, Options{Advertise: true})
	h.openSession(t, "s1")
	h.Agent.Send(`{"jsonrpc":"2.0","id":5,"method":"_askbridge/ask","params":{"sessionId":"s1","questions":[{"question":"Which database?","header":"Database","options":[{"label":"Postgres","description":"relational"},{"label":"SQLite","description":"embedded"}],"multiSelect":false}]}}`)
	req, _ := h.nextRequest(t, "session/request_permission")
	h.answer(t, req, pick("Postgres"))
	assert.JSONEq(t, `{"behavior":"allow","updatedInput":{"questions":[{"question":"Which database?","header":"Database","options":[{"label":"Postgres","description":"relational"},{"label":"SQLite","description":"embedded"}],"multiSelect":false}],"answers":{"Which database?":"Postgres"}}}`, string(h.agentReply(t, "5").Result))
}

func TestAskExtensionRejectsBadQuestionsListingEveryViolation(t *testing.T) {
	h := newBridgeHarness(t, Options{Advertise: true})
	h.openSession(t, "s1")
	h.Agent.Send(`{"jsonrpc":"2.0","id":6,"method":"_askbridge/ask","params":{"questions":[{"question":"Q","header":"A header far too long","options":[{"label":"only"}]},{"question":"Q","header":"H","options":[{"label":"x"},{"label":"x"}]}]}}`)
	reply := h.agentReply(t, "6")
	require.NotNil(t, reply.Error)
	assert.Equal(t, relay.CodeInvalidParams, reply.Error.Code)
	for _, want := range []string{"questions[0].options", "questions[0].header", "questions[1]"} {
		assert.Contains(t, reply.Error.Message, want)
	}
}

func TestSessionCancelWhilePendingCancelsAndWithdraws(t *testing.T) {
	h := newBridgeHarness(t, Options{Advertise: true})
	h.openSession(t, "s1")
	h.Agent.Send(`{"jsonrpc":"2.0","id":5,"method":"_askbridge/ask","params":{"sessionId":"s1","questions":[{"question":"Which database?","header":"Database","options":[{"label":"Postgres"},{"label":"SQLite"}]}]}}`)
	req, _ := h.nextRequest(t, "session/request_permission")
	h.Client.Send(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s1"}}`)
	assert.JSONEq(t, `{"behavior":"deny","message":"User cancelled the question","interrupt":true}`, string(h.agentReply(t, "5").Result))
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
	h.openSession(t, "s1")
	h.Agent.Send(claudeSingle)
	req, _ := h.nextRequest(t, "session/request_permission")
	h.Agent.Send(`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":41}}`)
	assert.JSONEq(t, `{"action":"cancel"}`, string(h.agentReply(t, "41").Result))
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
	h.openSession(t, "s1")
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
	h.answer(t, reqs["s2"], pick("B2"))
	h.answer(t, reqs["s1"], pick("A1"))
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
	h.openSession(t, "s1")
	h.Agent.Send(claudeSingle)
	h.nextRequest(t, "session/request_permission")
	h.Client.Close()
	assert.JSONEq(t, `{"action":"cancel"}`, string(h.agentReply(t, "41").Result))
}

func TestQuestionTimeoutAnswersTheRecommendedOption(t *testing.T) {
	h := newBridgeHarness(t, Options{Advertise: true, QuestionTimeout: 100 * time.Millisecond, OnTimeout: TimeoutRecommended})
	h.openSession(t, "s1")
	h.Agent.Send(`{"jsonrpc":"2.0","id":5,"method":"_askbridge/ask","params":{"sessionId":"s1","questions":[{"question":"Which?","header":"Pick","options":[{"label":"A"},{"label":"B (Recommended)"}]}]}}`)
	req, _ := h.nextRequest(t, "session/request_permission")
	assert.Contains(t, string(h.agentReply(t, "5").Result), `"Which?":"B (Recommended)"`)
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
	h.openSession(t, "s1")
	ask := func(id int) {
		h.Agent.Send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"_askbridge/ask","params":{"sessionId":"s1","questions":[{"question":"Q%d?","header":"H","options":[{"label":"A"},{"label":"B"}]}]}}`, id, id))
	}
	ask(1)
	req, _ := h.nextRequest(t, "session/request_permission")
	h.answer(t, req, pick("A"))
	h.agentReply(t, "1")
	ask(2)
	reply := h.agentReply(t, "2")
	assert.Contains(t, string(reply.Result), "question limit of 1 reached in this turn")
	assert.True(t, strings.Contains(h.Client.Recv()+h.Client.Recv(), "question limit"), "the client is told")
}

func TestRoundsAreNumberedAcrossTurnsAndTheLimitResetsPerTurn(t *testing.T) {
	h := newBridgeHarness(t, Options{Advertise: true, MaxRounds: 1})
	h.openSession(t, "s1")
	ask := func(id int) rpc {
		h.Agent.Send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"_askbridge/ask","params":{"sessionId":"s1","questions":[{"question":"Q%d?","header":"Pick","options":[{"label":"A"},{"label":"B"}]}]}}`, id, id))
		req, _ := h.nextRequest(t, "session/request_permission")
		h.answer(t, req, pick("A"))
		h.agentReply(t, fmt.Sprint(id))
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

// A timeout is not a cancel: Claude reads a decline as "the user did not
// answer" and goes on, where a cancel would abort its tool call.
func TestQuestionTimeoutDeclinesTheForm(t *testing.T) {
	h := newBridgeHarness(t, Options{Advertise: true, QuestionTimeout: 100 * time.Millisecond, OnTimeout: TimeoutEnd})
	h.openSession(t, "s1")
	h.Agent.Send(claudeSingle)
	req, _ := h.nextRequest(t, "session/request_permission")
	assert.JSONEq(t, `{"action":"decline"}`, string(h.agentReply(t, "41").Result))
	for {
		m := decode(t, h.Client.Recv())
		if m.Method == "$/cancel_request" {
			assert.Contains(t, string(m.Params), string(req.ID))
			break
		}
	}
	hist, _ := h.bridge.board.History("s1")
	require.Len(t, hist, 1)
	assert.Equal(t, permission.StateTimeout, hist[0].State)
}

func TestElicitationEnumFieldsWithNames(t *testing.T) {
	h := newBridgeHarness(t, Options{Advertise: true})
	h.openSession(t, "s1")
	h.Agent.Send(`{"jsonrpc":"2.0","id":3,"method":"elicitation/create","params":{"mode":"form","sessionId":"s1","message":"Pick a size","requestedSchema":{"type":"object","properties":{"size":{"type":"string","title":"Size","enum":["s","m","l"],"enumNames":["Small","Medium","Large"]}},"required":["size"]}}}`)
	req, _ := h.nextRequest(t, "session/request_permission")
	assert.Contains(t, string(req.Params), `"optionId":"Medium"`)
	assert.Contains(t, string(req.Params), `Pick a size`)
	h.answer(t, req, pick("Medium"))
	assert.JSONEq(t, `{"action":"accept","content":{"size":"m"}}`, string(h.agentReply(t, "3").Result))
}

func TestAnAgentAskingInALoopIsStoppedAtTheRoundLimit(t *testing.T) {
	h := newBridgeHarness(t, Options{Advertise: true, MaxRounds: 10})
	h.openSession(t, "s1")
	var titles []string
	for i := 1; i <= 12; i++ {
		h.Agent.Send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"_askbridge/ask","params":{"sessionId":"s1","questions":[{"question":"Again %d?","header":"Loop","options":[{"label":"Yes"},{"label":"No"}]}]}}`, i, i))
		if i <= 10 {
			req, _ := h.nextRequest(t, "session/request_permission")
			var p struct {
				ToolCall struct{ Title string } `json:"toolCall"`
			}
			json.Unmarshal(req.Params, &p)
			titles = append(titles, p.ToolCall.Title)
			h.answer(t, req, pick("Yes"))
			assert.Contains(t, string(h.agentReply(t, fmt.Sprint(i)).Result), `"allow"`)
			continue
		}
		reply := h.agentReply(t, fmt.Sprint(i))
		assert.JSONEq(t, `{"behavior":"deny","message":"question limit of 10 reached in this turn; continue with what you know or ask in the chat","interrupt":false}`, string(reply.Result))
	}
	assert.Equal(t, "Loop", titles[0])
	assert.Equal(t, "Round 10 · Loop", titles[9])
}

func TestFormTrueIsNotAFormCapability(t *testing.T) {
	h := newBridgeHarness(t, Options{Advertise: true})
	h.Client.Send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"clientCapabilities":{"elicitation":{"form":true,"url":{}}}}}`)
	got := decode(t, h.Agent.Recv())
	assert.JSONEq(t, `{"clientCapabilities":{"elicitation":{"form":{},"url":{}},"_meta":{"qwen.askUserQuestion":true}}}`, string(got.Params))
	assert.False(t, h.bridge.ClientRendersForms(), "Claude offers its question tool only for an object; askbridge renders the questions")
}

func TestAnAnswerFromTheBoardWinsWithdrawsAndIsShown(t *testing.T) {
	h := newBridgeHarness(t, Options{Advertise: true})
	h.openSession(t, "s1")
	h.Agent.Send(`{"jsonrpc":"2.0","id":8,"method":"_askbridge/ask","params":{"sessionId":"s1","questions":[{"question":"Which?","header":"Pick","options":[{"label":"A"},{"label":"B"}]}]}}`)
	req, _ := h.nextRequest(t, "session/request_permission")
	pending := h.bridge.board.List()
	require.Len(t, pending, 1)
	q := pending[0].Questions[0]
	require.NoError(t, h.bridge.board.Answer(pending[0].ID, permission.Result{Answers: []permission.Answered{{Question: q, Answer: permission.Answer{Labels: []string{"B"}}, Index: 0}}}))
	assert.Contains(t, string(h.agentReply(t, "8").Result), `"Which?":"B"`)
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
	assert.ErrorIs(t, h.bridge.board.Answer(pending[0].ID, permission.Result{}), permission.ErrResolved, "the first answer wins")
}
