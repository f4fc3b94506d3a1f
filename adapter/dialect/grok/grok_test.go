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

const questions = `"questions":[{"question":"Which database?","options":[{"label":"Postgres","description":"relational"},{"label":"SQLite"}]},{"question":"Which languages?","multiSelect":true,"options":[{"label":"Go"},{"label":"Rust"}]}],"mode":"default"`

func claim(t *testing.T, params string) (*dialect.Claim, []permission.Question, error) {
	t.Helper()
	line := `{"jsonrpc":"2.0","id":0,"method":"_x.ai/ask_user_question","params":` + params + `}`
	c := (&Dialect{}).Claim(dialecttest.Host{}, &relay.Message{Method: AskUserQuestion, ID: json.RawMessage("0"), Raw: []byte(line)})
	require.NotNil(t, c)
	qs, err := c.Questions(context.Background())
	return c, qs, err
}

func reply(t *testing.T, c *dialect.Claim, o dialect.Outcome) string {
	t.Helper()
	v, err := c.Reply(context.Background(), o)
	require.NoError(t, err)
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

func TestGrokQuestionsPlainAndWrapped(t *testing.T) {
	for name, params := range map[string]string{
		"plain":   `{"sessionId":"s1","toolCallId":"t1",` + questions + `}`,
		"wrapped": `{"method":"x.ai/ask_user_question","params":{"sessionId":"s1","toolCallId":"t1",` + questions + `}}`,
	} {
		t.Run(name, func(t *testing.T) {
			c, qs, err := claim(t, params)
			require.NoError(t, err)
			assert.Equal(t, "s1", c.SessionID)
			assert.Equal(t, "t1", c.ToolCallID)
			require.Len(t, qs, 2)
			assert.Equal(t, []permission.Option{{Label: "Postgres", Description: "relational"}, {Label: "SQLite"}}, qs[0].Options)
			assert.False(t, qs[0].Kind.Many)
			assert.True(t, qs[1].Kind.Many)
		})
	}
}

func TestGrokAnswers(t *testing.T) {
	c, qs, err := claim(t, `{"sessionId":"s1","toolCallId":"t1",`+questions+`}`)
	require.NoError(t, err)
	r := permission.Result{Answers: []permission.Answered{
		{Question: qs[0], Answer: permission.Answer{Labels: []string{"SQLite"}}, Index: 0},
		{Question: qs[1], Answer: permission.Answer{Labels: []string{"Go"}, Other: true, Custom: "Zig"}, Index: 1},
	}}
	assert.JSONEq(t, `{"outcome":"accepted","answers":{"Which database?":["SQLite"],"Which languages?":["Go","Other"]},"annotations":{"Which languages?":{"notes":"Zig"}}}`,
		reply(t, c, dialect.Outcome{Status: dialect.Answered, Result: r}))
	assert.JSONEq(t, `{"outcome":"cancelled"}`, reply(t, c, dialect.Outcome{Status: dialect.Cancelled}))
	assert.JSONEq(t, `{"outcome":"skip_interview"}`, reply(t, c, dialect.Outcome{Status: dialect.Refused, Message: "limit"}))
	w := permission.NoAnswerInTime
	assert.JSONEq(t, `{"outcome":"accepted","answers":{"Which database?":["Other"],"Which languages?":["Other"]},"annotations":{"Which database?":{"notes":"`+w+`"},"Which languages?":{"notes":"`+w+`"}}}`,
		reply(t, c, dialect.Outcome{Status: dialect.TimedOut}))
}

func TestGrokRefusesWhatItCannotAskWithAnError(t *testing.T) {
	for name, params := range map[string]string{
		"no questions":       `{"sessionId":"s1","questions":[]}`,
		"duplicate question": `{"sessionId":"s1","questions":[{"question":"Q?","options":[]},{"question":"Q?","options":[]}]}`,
		"label Other":        `{"sessionId":"s1","questions":[{"question":"Q?","options":[{"label":"Other"}]}]}`,
		"too many options":   `{"sessionId":"s1","questions":[{"question":"Q?","options":[{"label":"a"},{"label":"b"},{"label":"c"},{"label":"d"},{"label":"e"}]}]}`,
		"no session":         `{"questions":[{"question":"Q?","options":[]}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			c, _, err := claim(t, params)
			require.Error(t, err)
			_, rerr := c.Reply(context.Background(), dialect.Outcome{Status: dialect.Invalid, Err: err})
			var re *relay.Error
			assert.ErrorAs(t, rerr, &re, "the agent gets a JSON-RPC error: its tool fails and the model goes on")
		})
	}
}

func TestGrokReadsTheClientsOwnAnswer(t *testing.T) {
	c, _, err := claim(t, `{"sessionId":"s1","toolCallId":"t1",`+questions+`}`)
	require.NoError(t, err)
	r := c.ReadResponse(json.RawMessage(`{"jsonrpc":"2.0","id":0,"result":{"outcome":"accepted","answers":{"Which database?":["SQLite"],"Which languages?":["Other"]},"annotations":{"Which languages?":{"notes":"Zig"}}}}`))
	require.Len(t, r.Answers, 2)
	assert.Equal(t, permission.Answer{Labels: []string{"SQLite"}}, r.Answers[0].Answer)
	assert.Equal(t, permission.Answer{Other: true, Custom: "Zig"}, r.Answers[1].Answer)
	assert.True(t, c.ReadResponse(json.RawMessage(`{"jsonrpc":"2.0","id":0,"result":{"outcome":"cancelled"}}`)).Cancelled)
}
