package kiro

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

const ask = `{"jsonrpc":"2.0","id":2,"method":"_kiro/userInput","params":{"sessionId":"s1","toolCallId":"t1","question":"What are we doing?","options":[{"title":"Build a Feature","description":"new","recommended":true,"subOptionsLabel":"Which documents?","subOptions":[{"title":"Requirements"},{"title":"Design"}]},{"title":"Fix a Bug"}]}}`

func claim(t *testing.T, line string) (*dialect.Claim, []permission.Question, error) {
	t.Helper()
	c := (&Dialect{}).Claim(dialecttest.Host{}, &relay.Message{Method: UserInput, ID: json.RawMessage("2"), Raw: []byte(line)})
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

func TestKiroQuestionAndItsSubOptions(t *testing.T) {
	c, qs, err := claim(t, ask)
	require.NoError(t, err)
	assert.Equal(t, "s1", c.SessionID)
	assert.Equal(t, "t1", c.ToolCallID)
	assert.Equal(t, dialect.Extension, c.Mode, "a client that implements Kiro's method keeps it")
	require.Len(t, qs, 1)
	assert.Equal(t, "What are we doing?", qs[0].Question)
	assert.Equal(t, []permission.Option{{Label: "Build a Feature", Description: "new (recommended)"}, {Label: "Fix a Bug"}}, qs[0].Options)
	sub := qs[0].FollowUps["Build a Feature"]
	require.Len(t, sub, 1)
	assert.True(t, sub[0].Kind.Many)
	assert.Equal(t, "Which documents?", sub[0].Question)
	assert.Nil(t, qs[0].FollowUps["Fix a Bug"])
}

func TestKiroAnswers(t *testing.T) {
	c, qs, err := claim(t, ask)
	require.NoError(t, err)
	picked := permission.Result{Answers: []permission.Answered{
		{Question: qs[0], Answer: permission.Answer{Labels: []string{"Build a Feature"}}, Index: 0},
		{Question: qs[0].FollowUps["Build a Feature"][0], Answer: permission.Answer{Labels: []string{"Design"}}, Index: -1},
	}}
	assert.JSONEq(t, `{"action":"answered","answer":"Build a Feature [Design]"}`, reply(t, c, dialect.Outcome{Status: dialect.Answered, Result: picked}))
	typed := permission.Result{Answers: []permission.Answered{{Question: qs[0], Answer: permission.Answer{Other: true, Custom: "Refactor"}, Index: 0}}}
	assert.JSONEq(t, `{"action":"answered","answer":"Refactor"}`, reply(t, c, dialect.Outcome{Status: dialect.Answered, Result: typed}))
	assert.JSONEq(t, `{"action":"dismissed"}`, reply(t, c, dialect.Outcome{Status: dialect.Cancelled}))
	assert.JSONEq(t, `{"action":"dismissed"}`, reply(t, c, dialect.Outcome{Status: dialect.Refused, Message: "limit"}))
	assert.JSONEq(t, `{"action":"answered","answer":"`+permission.NoAnswerInTime+`"}`, reply(t, c, dialect.Outcome{Status: dialect.TimedOut}))
}

func TestKiroRefusesWhatItCannotAskByDismissing(t *testing.T) {
	for name, line := range map[string]string{
		"no question":     `{"id":2,"params":{"sessionId":"s1","question":" ","options":[]}}`,
		"duplicate title": `{"id":2,"params":{"sessionId":"s1","question":"Q?","options":[{"title":"A"},{"title":"A"}]}}`,
		"too many":        `{"id":2,"params":{"sessionId":"s1","question":"Q?","options":[{"title":"A"},{"title":"B"},{"title":"C"},{"title":"D"},{"title":"E"}]}}`,
		"not an object":   `{"id":2,"params":[1]}`,
	} {
		t.Run(name, func(t *testing.T) {
			c, _, err := claim(t, line)
			require.Error(t, err)
			assert.JSONEq(t, `{"action":"dismissed"}`, reply(t, c, dialect.Outcome{Status: dialect.Invalid, Err: err}))
		})
	}
}

func TestKiroReadsTheClientsOwnAnswer(t *testing.T) {
	c, _, err := claim(t, ask)
	require.NoError(t, err)
	r := c.ReadResponse(json.RawMessage(`{"jsonrpc":"2.0","id":2,"result":{"action":"answered","answer":"Fix a Bug"}}`))
	require.Len(t, r.Answers, 1)
	assert.Equal(t, []string{"Fix a Bug"}, r.Answers[0].Answer.Labels)
	r = c.ReadResponse(json.RawMessage(`{"jsonrpc":"2.0","id":2,"result":{"action":"answered","answer":"Something else"}}`))
	assert.Equal(t, permission.Answer{Other: true, Custom: "Something else"}, r.Answers[0].Answer)
	assert.True(t, c.ReadResponse(json.RawMessage(`{"jsonrpc":"2.0","id":2,"result":{"action":"dismissed"}}`)).Cancelled)
}

func TestKiroAdvertisesUserInput(t *testing.T) {
	d := (&Dialect{}).Advertise()
	require.Len(t, d, 1)
	assert.Equal(t, []string{"clientCapabilities", "_meta", "kiro", "userInput"}, d[0].Path)
	assert.JSONEq(t, `true`, string(d[0].Value))
}
