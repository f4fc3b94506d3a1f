package adapter

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/permission"
)

// probe is a dialect of the tests' own, on the seam as any dialect is: it
// claims "x/ask" requests, asks one question, and replies with the label.
type probe struct{ mode dialect.Mode }

func (*probe) Name() string { return "probe" }
func (*probe) Hooks() []dialect.Hook {
	return []dialect.Hook{{From: dialect.FromAgent, Method: "x/ask"}}
}
func (p *probe) Claim(h dialect.Host, m *relay.Message) *dialect.Claim {
	return &dialect.Claim{
		SessionID: h.ActiveSession(""),
		Mode:      p.mode,
		Questions: func(context.Context) ([]permission.Question, error) {
			return []permission.Question{{Question: "Which?", Header: "Pick", Options: []permission.Option{{Label: "A"}, {Label: "B"}}}}, nil
		},
		Reply: func(_ context.Context, o dialect.Outcome) (any, error) {
			if o.Status != dialect.Answered {
				return map[string]string{"status": "not answered"}, nil
			}
			return map[string]string{"picked": o.Result.Answers[0].Answer.Labels[0]}, nil
		},
	}
}

func TestADialectOnTheSeamAsksAndReplies(t *testing.T) {
	h := newBridgeHarness(t, Options{Dialects: []dialect.Dialect{&probe{}}})
	h.OpenSession(t, "s1")
	h.Agent.Send(`{"jsonrpc":"2.0","id":7,"method":"x/ask","params":{}}`)
	req, _ := h.NextRequest(t, "session/request_permission")
	h.Answer(t, req, pick("B"))
	assert.JSONEq(t, `{"picked":"B"}`, string(h.AgentReply(t, "7").Result))
}

func TestAFallbackDialectAsksOnlyWhenTheClientDoesNotKnowTheMethod(t *testing.T) {
	h := newBridgeHarness(t, Options{Dialects: []dialect.Dialect{&probe{mode: dialect.Forward}}})
	h.OpenSession(t, "s1")

	// A client that implements the method answers it itself.
	h.Agent.Send(`{"jsonrpc":"2.0","id":1,"method":"x/ask","params":{}}`)
	fwd, _ := h.NextRequest(t, "x/ask")
	h.Answer(t, fwd, `{"own":"ui"}`)
	assert.JSONEq(t, `{"own":"ui"}`, string(h.AgentReply(t, "1").Result))

	// One that does not know it gets the question as a permission request,
	// and the agent never sees the -32601.
	h.Agent.Send(`{"jsonrpc":"2.0","id":2,"method":"x/ask","params":{}}`)
	fwd, _ = h.NextRequest(t, "x/ask")
	h.Client.Send(`{"jsonrpc":"2.0","id":` + string(fwd.ID) + `,"error":{"code":-32601,"message":"Method not found"}}`)
	req, _ := h.NextRequest(t, "session/request_permission")
	h.Answer(t, req, pick("A"))
	reply := h.AgentReply(t, "2")
	require.Nil(t, reply.Error)
	assert.JSONEq(t, `{"picked":"A"}`, string(reply.Result))
}

func TestAQuestionSentAsANotificationGetsNoReply(t *testing.T) {
	h := newBridgeHarness(t, Options{})
	h.OpenSession(t, "s1")
	h.Agent.Send(`{"jsonrpc":"2.0","method":"_askbridge/ask","params":{"questions":[{"question":"Q?","header":"H","options":[{"label":"a"},{"label":"b"}]}]}}`)
	h.Agent.Send(`{"jsonrpc":"2.0","method":"ping/after"}`)
	// Nothing is asked and nothing answered: the next line the client sees
	// is the notification sent after it.
	m := decode(t, h.Client.Recv())
	assert.Equal(t, "ping/after", m.Method)
}

// unencodable replies with a value encoding/json refuses.
type unencodable struct{ probe }

func (u *unencodable) Claim(h dialect.Host, m *relay.Message) *dialect.Claim {
	c := u.probe.Claim(h, m)
	c.Reply = func(context.Context, dialect.Outcome) (any, error) { return map[string]any{"n": func() {}}, nil }
	return c
}
