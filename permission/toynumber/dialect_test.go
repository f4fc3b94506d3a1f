package toynumber_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/adapter/adaptertest"
	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/permission/toynumber"
)

// numberDialect is an agent that asks for a number (`_number/ask`) and
// reads back {"number": TEXT} or {"dismissed": true}: the one line a
// dialect that supports the kind adds is the Kind of the question it reads.
type numberDialect struct{}

func (numberDialect) Name() string { return "number" }

func (numberDialect) Hooks() []dialect.Hook {
	return []dialect.Hook{{From: dialect.FromAgent, Method: "_number/ask"}}
}

func (numberDialect) Claim(h dialect.Host, m *relay.Message) *dialect.Claim {
	var p struct {
		SessionID string `json:"sessionId"`
		Question  string `json:"question"`
	}
	err := m.Params(&p)
	return &dialect.Claim{
		SessionID: h.ActiveSession(p.SessionID),
		Mode:      dialect.AskForm,
		Questions: func(context.Context) ([]permission.Question, error) {
			q := permission.Question{Question: p.Question, Header: "Number", Options: []permission.Option{{Label: "Skip"}},
				Kind: toynumber.Number} // the dialect's one line
			return []permission.Question{q}, err
		},
		Reply: func(_ context.Context, o dialect.Outcome) (any, error) {
			if o.Status != dialect.Answered || len(o.Result.Answers) == 0 {
				return map[string]bool{"dismissed": true}, nil
			}
			return map[string]string{"number": o.Result.Answers[0].Answer.Text()}, nil
		},
	}
}

// askByForm asks the toy agent's question of a client that renders forms
// and answers the form's typed field with typed.
func askByForm(t *testing.T, typed string) string {
	h := adaptertest.New(t, adapter.Options{Dialects: append(adapter.Dialects(), numberDialect{})})
	h.Client.Send(`{"jsonrpc":"2.0","id":"i","method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"elicitation":{"form":{}}}}}`)
	h.Agent.Recv()
	h.Agent.Send(`{"jsonrpc":"2.0","id":"i","result":{"protocolVersion":1}}`)
	h.Client.Recv()
	h.OpenSession(t, "s1")
	h.Agent.Send(`{"jsonrpc":"2.0","id":"n1","method":"_number/ask","params":{"sessionId":"s1","question":"How many replicas?"}}`)
	req, _ := h.NextRequest(t, "elicitation/create")
	assert.Contains(t, string(req.Params), `"description":"Type a number (optional)."`)
	b, err := json.Marshal(typed)
	require.NoError(t, err)
	h.Answer(t, req, `{"action":"accept","content":{"question_0_custom":`+string(b)+`}}`)
	return string(h.AgentReply(t, `"n1"`).Result)
}

// The form askbridge writes for a client that renders forms says what to
// type, and a form cannot be asked again: text that is no number
// dismisses the set rather than reach the agent as its number.
func TestAFormTakesOnlyANumber(t *testing.T) {
	assert.JSONEq(t, `{"number":"12"}`, askByForm(t, "12"))
	assert.JSONEq(t, `{"dismissed":true}`, askByForm(t, "twelve"))
}
