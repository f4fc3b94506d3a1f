package adapter

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/relay"
)

// Forms are held to the question limits: a choice of 1,000 values is not
// one request of 1,001 buttons, and 500 fields are not 500 requests.
func TestFormsOverTheLimitsAreDeclinedUnasked(t *testing.T) {
	var values []string
	for i := range 1000 {
		values = append(values, fmt.Sprintf(`"v%d"`, i))
	}
	var fields []string
	for i := range 500 {
		fields = append(fields, fmt.Sprintf(`"f%d":{"type":"boolean","title":"F%d"}`, i, i))
	}
	for name, schema := range map[string]string{
		"a 1,000-value enum": `{"type":"object","properties":{"pick":{"type":"string","title":"Pick","enum":[` + strings.Join(values, ",") + `]}}}`,
		"500 fields":         `{"type":"object","properties":{` + strings.Join(fields, ",") + `}}`,
	} {
		t.Run(name, func(t *testing.T) {
			h := newBridgeHarness(t, Options{Advertise: true})
			h.OpenSession(t, "s1")
			h.Agent.Send(`{"jsonrpc":"2.0","id":5,"method":"elicitation/create","params":{"mode":"form","sessionId":"s1","message":"Big","requestedSchema":` + schema + `}}`)
			assert.JSONEq(t, `{"action":"decline"}`, string(h.AgentReply(t, "5").Result))
			h.Agent.Send(`{"jsonrpc":"2.0","method":"after/decline"}`)
			assert.Equal(t, "after/decline", decode(t, h.Client.Recv()).Method, "nothing was asked")
		})
	}
}

// A number field typed NaN (or Inf) is no JSON number: the reply would
// never encode, and the agent would wait for ever. It is left unfilled, so
// a required one declines.
func TestANonFiniteNumberIsNotAnAnswer(t *testing.T) {
	for _, typed := range []string{"NaN", "Inf", "-Infinity"} {
		h := newBridgeHarness(t, Options{Advertise: true})
		h.OpenSession(t, "s1")
		h.Agent.Send(`{"jsonrpc":"2.0","id":9,"method":"elicitation/create","params":{"mode":"form","sessionId":"s1","message":"How many?","requestedSchema":{"type":"object","properties":{"n":{"type":"number","title":"N"}},"required":["n"]}}}`)
		req, _ := h.NextRequest(t, "session/request_permission")
		h.Answer(t, req, `{"outcome":{"outcome":"selected","optionId":"__other__","_meta":{"customText":"`+typed+`"}}}`)
		assert.JSONEq(t, `{"action":"decline"}`, string(h.AgentReply(t, "9").Result), typed)
	}
}

// A reply that cannot be encoded becomes an error to the same id.
func TestAReplyThatCannotBeEncodedBecomesAnError(t *testing.T) {
	h := newBridgeHarness(t, Options{Dialects: []dialect.Dialect{&unencodable{}}})
	h.OpenSession(t, "s1")
	h.Agent.Send(`{"jsonrpc":"2.0","id":3,"method":"x/ask","params":{}}`)
	req, _ := h.NextRequest(t, "session/request_permission")
	h.Answer(t, req, pick("A"))
	reply := h.AgentReply(t, "3")
	if assert.NotNil(t, reply.Error) {
		assert.Equal(t, relay.CodeInternalError, reply.Error.Code)
		assert.Contains(t, reply.Error.Message, "could not be encoded")
	}
}

// An agent's cancel of a request askbridge already answered does not reach
// a client that never saw that request's id.
func TestALateCancelOfAnAnsweredQuestionIsDropped(t *testing.T) {
	h := newBridgeHarness(t, Options{})
	h.OpenSession(t, "s1")
	h.Agent.Send(`{"jsonrpc":"2.0","id":5,"method":"_askbridge/ask","params":{"questions":[{"question":"Q?","header":"H","options":[{"label":"a"},{"label":"b"}]}]}}`)
	req, _ := h.NextRequest(t, "session/request_permission")
	h.Answer(t, req, pick("a"))
	h.AgentReply(t, "5")
	h.Agent.Send(`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":5}}`)
	h.Agent.Send(`{"jsonrpc":"2.0","method":"after/cancel"}`)
	for {
		m := decode(t, h.Client.Recv())
		assert.NotEqual(t, "$/cancel_request", m.Method)
		if m.Method == "after/cancel" {
			break
		}
	}
}
