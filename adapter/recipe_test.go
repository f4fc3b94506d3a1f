package adapter_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/adapter/adaptertest"
	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/permission"
)

// toyDialect is the agent of docs/development.md's recipe ("Adding an
// agent"): its agent asks with a request of its own, `_toy/ask`, carrying
// one question and its choices, and reads back {"picked": LABEL} or
// {"dismissed": true}. Hooks, a Claim with one Mode, and a Reply: the
// bridge does the rest.
type toyDialect struct{}

func (toyDialect) Name() string { return "toy" }

func (toyDialect) Hooks() []dialect.Hook {
	return []dialect.Hook{{From: dialect.FromAgent, Method: "_toy/ask"}}
}

func (toyDialect) Claim(h dialect.Host, m *relay.Message) *dialect.Claim {
	var p struct {
		SessionID string   `json:"sessionId"`
		Question  string   `json:"question"`
		Choices   []string `json:"choices"`
	}
	parseErr := m.Params(&p)
	return &dialect.Claim{
		SessionID: h.ActiveSession(p.SessionID),
		Mode:      dialect.Ask,
		Questions: func(context.Context) ([]permission.Question, error) {
			if parseErr != nil {
				return nil, parseErr
			}
			q := permission.Question{Question: p.Question, Header: "Toy"}
			for _, c := range p.Choices {
				q.Options = append(q.Options, permission.Option{Label: c})
			}
			return []permission.Question{q}, nil
		},
		Reply: func(_ context.Context, o dialect.Outcome) (any, error) {
			if o.Status != dialect.Answered || len(o.Result.Answers) == 0 {
				return map[string]bool{"dismissed": true}, nil
			}
			return map[string][]string{"picked": o.Result.Answers[0].Answer.Labels}, nil
		},
	}
}

// The recipe's agent, registered with its one line of the table, is asked
// through the editor's permission requests and gets its answer in its own
// shape; the dialects already there are untouched by it.
func TestAToyAgentRegisteredInTheTableIsAnswered(t *testing.T) {
	table := append(adapter.Dialects(), toyDialect{}) // the toy's one line
	h := adaptertest.New(t, adapter.Options{Dialects: table})
	h.OpenSession(t, "s1")
	h.Agent.Send(`{"jsonrpc":"2.0","id":"t1","method":"_toy/ask","params":{"sessionId":"s1","question":"Which colour?","choices":["red","blue"]}}`)
	req, _ := h.NextRequest(t, "session/request_permission")
	p, ids := adaptertest.ReadPermission(t, req)
	assert.Contains(t, ids, "blue")
	assert.Contains(t, string(req.Params), "Which colour?", "%+v", p)
	h.Answer(t, req, adaptertest.Pick("blue"))
	var got struct {
		Picked []string `json:"picked"`
	}
	assert.NoError(t, json.Unmarshal(h.AgentReply(t, `"t1"`).Result, &got))
	assert.Equal(t, []string{"blue"}, got.Picked)
}
