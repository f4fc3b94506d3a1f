package qwen_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/adapter/adaptertest"
	"github.com/askbridge/askbridge/adapter/dialect/qwen/qwentest"
)

// qwenAsk is Qwen's permission request carrying two questions, the second
// multi-select.
const qwenAsk = qwentest.Ask

func TestQwenQuestionsAreAnsweredThroughTheTopLevelAnswersField(t *testing.T) {
	h := adaptertest.New(t, adapter.Options{Advertise: true})
	h.OpenSession(t, "s1")
	h.Agent.Send(qwenAsk)
	req, _ := h.NextRequest(t, "session/request_permission")
	assert.Contains(t, string(req.Params), `"toolCallId":"call_q"`)
	assert.Contains(t, string(req.Params), `(1/2)`)
	h.Answer(t, req, adaptertest.Pick("SQLite"))
	// Multi-select without selectedOptionIds: asked again with Done until Done.
	req, _ = h.NextRequest(t, "session/request_permission")
	h.Answer(t, req, adaptertest.Pick("Rust"))
	req, _ = h.NextRequest(t, "session/request_permission")
	assert.Contains(t, string(req.Params), `"__done__"`)
	assert.NotContains(t, string(req.Params), `"optionId":"Rust"`)
	h.Answer(t, req, adaptertest.Pick("Go"))
	req, _ = h.NextRequest(t, "session/request_permission")
	h.Answer(t, req, adaptertest.Pick("__done__"))
	assert.JSONEq(t, `{"outcome":{"outcome":"selected","optionId":"proceed_once"},"answers":{"0":"SQLite","1":"Go, Rust"}}`, string(h.AgentReply(t, "77").Result))
}

func TestQwenCancelAtTheFirstOfSeveralQuestionsShowsNoMore(t *testing.T) {
	h := adaptertest.New(t, adapter.Options{Advertise: true})
	h.OpenSession(t, "s1")
	h.Agent.Send(qwenAsk)
	req, _ := h.NextRequest(t, "session/request_permission")
	h.Answer(t, req, `{"outcome":{"outcome":"cancelled"}}`)
	assert.JSONEq(t, `{"outcome":{"outcome":"cancelled"}}`, string(h.AgentReply(t, "77").Result))
	h.Client.Send(`{"jsonrpc":"2.0","method":"_probe"}`)
	for {
		m := adaptertest.Decode(t, h.Agent.Recv())
		if m.Method == "_probe" {
			break
		}
	}
	if line, ok := h.Client.TryRecv(100 * time.Millisecond); ok {
		assert.NotContains(t, line, "session/request_permission", "no further question after a cancel")
	}
}
