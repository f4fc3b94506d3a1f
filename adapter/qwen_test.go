package adapter

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

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
