package claude_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/adapter/adaptertest"
	"github.com/askbridge/askbridge/permission"
)

// kimiForm is Kimi Code 2.1.0's AskUserQuestion form: a choice per question,
// a multi-select as an array, every field required, no free-text field.
// Kimi keeps only values among the choices and reads a form with none as
// "User dismissed the question without answering."
const kimiForm = `{"jsonrpc":"2.0","id":5,"method":"elicitation/create","params":{"sessionId":"s1","toolCallId":"call_1","mode":"form","message":"Which database?\nWhich languages?","requestedSchema":{"type":"object","properties":{"q0":{"type":"string","title":"Database","oneOf":[{"const":"Postgres","title":"Postgres","description":"relational"},{"const":"SQLite","title":"SQLite","description":"embedded"}]},"q1":{"type":"array","title":"Languages","minItems":1,"items":{"anyOf":[{"const":"Go","title":"Go"},{"const":"Rust","title":"Rust"}]}}},"required":["q0","q1"]}}}`

// A choice with no free-text field beside it is asked without "Other": what
// the user typed could not reach the agent, and would come back to its
// model as a dismissal.
func TestFormChoiceWithoutCompanionOffersNoOther(t *testing.T) {
	h := adaptertest.New(t, adapter.Options{Advertise: true})
	h.OpenSession(t, "s1")
	h.Agent.Send(kimiForm)
	req, _ := h.NextRequest(t, "session/request_permission")
	assert.NotContains(t, string(req.Params), permission.OtherID)
	assert.Contains(t, string(req.Params), `"optionId":"SQLite"`)
	h.Answer(t, req, adaptertest.Pick("SQLite"))
	req, _ = h.NextRequest(t, "session/request_permission")
	assert.NotContains(t, string(req.Params), permission.OtherID)
	h.Answer(t, req, `{"outcome":{"outcome":"selected","optionId":"Go","_meta":{"selectedOptionIds":["Go","Rust"]}}}`)
	assert.JSONEq(t, `{"action":"accept","content":{"q0":"SQLite","q1":["Go","Rust"]}}`, string(h.AgentReply(t, "5").Result))
}

// A client that sends Other anyway (an option it added itself) is told so,
// and the agent gets a cancel, never a decline passed off as the user's.
func TestFormChoiceWithoutCompanionRefusesOther(t *testing.T) {
	h := adaptertest.New(t, adapter.Options{Advertise: true})
	h.OpenSession(t, "s1")
	h.Agent.Send(kimiForm)
	req, _ := h.NextRequest(t, "session/request_permission")
	h.Answer(t, req, `{"outcome":{"outcome":"selected","optionId":"__other__","_meta":{"customText":"CockroachDB"}}}`)
	assert.JSONEq(t, `{"action":"cancel"}`, string(h.AgentReply(t, "5").Result))
}
