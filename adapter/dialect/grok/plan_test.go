package grok

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/dialect/dialecttest"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/permission"
)

func planClaim(t *testing.T, method, params string) (*dialect.Claim, []permission.Question) {
	t.Helper()
	line := `{"jsonrpc":"2.0","id":3,"method":"` + method + `","params":` + params + `}`
	c := (&Dialect{}).Claim(dialecttest.Host{}, &relay.Message{Method: method, ID: json.RawMessage("3"), Raw: []byte(line)})
	require.NotNil(t, c)
	qs, err := c.Questions(context.Background())
	require.NoError(t, err)
	return c, qs
}

func TestGrokPlanIsApproveOrChanges(t *testing.T) {
	for _, tc := range []struct{ method, params string }{
		{ExitPlanMode, `{"sessionId":"s1","toolCallId":"t9","planContent":"1. Add the table\n2. Migrate"}`},
		{exitPlanModeBare, `{"method":"x.ai/exit_plan_mode","params":{"sessionId":"s1","toolCallId":"t9","planContent":"1. Add the table\n2. Migrate"}}`},
	} {
		c, qs := planClaim(t, tc.method, tc.params)
		assert.Equal(t, "s1", c.SessionID)
		assert.Equal(t, "t9", c.ToolCallID)
		require.Len(t, qs, 1)
		assert.Equal(t, "1. Add the table\n2. Migrate", qs[0].Question)
		assert.Equal(t, dialect.Extension, c.Mode, "a plan is never a form")
		answered := func(a permission.Answer) dialect.Outcome {
			return dialect.Outcome{Status: dialect.Answered, Result: permission.Result{Answers: []permission.Answered{{Question: qs[0], Answer: a}}}}
		}
		assert.JSONEq(t, `{"outcome":"approved"}`, reply(t, c, answered(permission.Answer{Labels: []string{approve}})))
		assert.JSONEq(t, `{"outcome":"request_changes","feedback":"Use SQLite"}`, reply(t, c, answered(permission.Answer{Other: true, Custom: "Use SQLite"})))
		assert.JSONEq(t, `{"outcome":"request_changes","feedback":"Please revise the plan."}`, reply(t, c, answered(permission.Answer{Labels: []string{revise}})))
		assert.JSONEq(t, `{"outcome":"abandoned"}`, reply(t, c, dialect.Outcome{Status: dialect.Cancelled}))
		assert.JSONEq(t, `{"outcome":"request_changes","feedback":"`+PlanTimeoutFeedback+`"}`, reply(t, c, dialect.Outcome{Status: dialect.TimedOut}))
	}
}

func TestGrokPlanReadsTheClientsOwnAnswer(t *testing.T) {
	c, _ := planClaim(t, ExitPlanMode, `{"sessionId":"s1","toolCallId":"t9","planContent":"P"}`)
	r := c.ReadResponse(json.RawMessage(`{"jsonrpc":"2.0","id":3,"result":{"outcome":"approved"}}`))
	assert.Equal(t, []string{approve}, r.Answers[0].Answer.Labels)
	r = c.ReadResponse(json.RawMessage(`{"jsonrpc":"2.0","id":3,"result":{"outcome":"request_changes","feedback":"smaller"}}`))
	assert.Equal(t, permission.Answer{Other: true, Custom: "smaller"}, r.Answers[0].Answer)
	assert.True(t, c.ReadResponse(json.RawMessage(`{"jsonrpc":"2.0","id":3,"result":{"outcome":"abandoned"}}`)).Cancelled)
}
