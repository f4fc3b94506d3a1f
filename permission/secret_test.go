package permission

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const typedSecret = "hunter2-s3cr3t"

func secretQ() Question {
	sq := q("Which token?", "Token", "Staging", "Production")
	sq.Kind.Secret = true
	return sq
}

func TestRedactedHidesOnlyASecretQuestionsTypedText(t *testing.T) {
	plain := q("Which CI?", "CI", "GitHub", "GitLab")
	r := Result{Answers: []Answered{
		{Question: secretQ(), Answer: Answer{Labels: []string{"Staging"}, Other: true, Custom: typedSecret}},
		{Question: plain, Answer: Answer{Other: true, Custom: "Buildkite"}},
		{Question: secretQ(), Answer: Answer{Labels: []string{"Production"}}},
	}}
	red := r.Redacted()
	assert.Equal(t, Answer{Labels: []string{"Staging"}, Other: true, Custom: SecretText}, red.Answers[0].Answer)
	assert.Equal(t, "Staging, "+SecretText, red.Answers[0].Answer.Text())
	assert.Equal(t, "Buildkite", red.Answers[1].Answer.Custom, "a question not secret keeps its text")
	assert.Equal(t, []string{"Production"}, red.Answers[2].Answer.Labels)
	assert.Equal(t, typedSecret, r.Answers[0].Answer.Custom, "the result itself is left alone")
	assert.Equal(t, []string{typedSecret}, r.Secrets())
	assert.Empty(t, red.Secrets())
}

// What the board shows — Get, List, History and every event — has the
// secret's placeholder; only the ticket's Result, which goes to the agent,
// has the text.
func TestBoardShowsNoSecretAnswer(t *testing.T) {
	b := NewBoard()
	events := b.Subscribe(t.Context())
	tk := b.Open(Request{SessionID: "s", Questions: []Question{secretQ()}, Round: 1})
	<-events
	require.NoError(t, b.Settle(tk.ID, Result{Answers: []Answered{{Question: secretQ(), Path: "questions[0]",
		Answer: Answer{Other: true, Custom: typedSecret}}}}, ByEditor()))
	ev := <-events
	p, _ := b.Get(tk.ID)
	hist, _ := b.History("s")
	for what, v := range map[string]any{"event": ev, "Get": p, "History": hist} {
		doc, err := json.Marshal(v)
		require.NoError(t, err)
		assert.NotContains(t, string(doc), typedSecret, what)
		assert.Contains(t, string(doc), SecretText, what)
		assert.Contains(t, string(doc), `"secret":true`, "%s says the question is secret", what)
	}
	assert.Equal(t, typedSecret, tk.Result().Answers[0].Answer.Custom, "the agent gets what was typed")
}

// The desk answers a step at a time: a secret typed at the first step is
// hidden in the step's event, and still reaches the agent at the end.
func TestBoardProgressKeepsTheSecretForTheAgentOnly(t *testing.T) {
	b := NewBoard()
	events := b.Subscribe(t.Context())
	sq := secretQ()
	sq.FollowUps = map[string][]Question{"Staging": {q("Which region?", "Region", "eu", "us")}}
	tk := b.Open(Request{SessionID: "s", Questions: []Question{sq}, Round: 1})
	<-events
	done, err := b.ProgressBy(tk.ID, 0, []Answer{{Labels: []string{"Staging"}, Other: true, Custom: typedSecret}}, editor)
	require.NoError(t, err)
	require.False(t, done)
	step := <-events
	require.Len(t, step.Pending.Answered, 1)
	assert.Equal(t, SecretText, step.Pending.Answered[0].Answer.Custom)
	done, err = b.ProgressBy(tk.ID, 1, []Answer{{Labels: []string{"eu"}}}, editor)
	require.NoError(t, err)
	require.True(t, done)
	last := <-events
	doc, _ := json.Marshal(last)
	assert.NotContains(t, string(doc), typedSecret)
	assert.Equal(t, typedSecret, tk.Result().Answers[0].Answer.Custom)
	assert.Equal(t, []string{"eu"}, tk.Result().Answers[1].Answer.Labels)
}

// Ask tells the peer which permission requests ask a secret question, so
// that one recording its traffic can hide the response's text.
func TestAskMarksTheSecretQuestionsRequest(t *testing.T) {
	var marks []bool
	p := &fakePeer{respond: script(selected("GitHub"), `{"outcome":{"outcome":"selected","optionId":"__other__","_meta":{"customText":"`+typedSecret+`"}}}`)}
	peer := markingPeer{fakePeer: p, marks: &marks}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	res, err := Ask(ctx, peer, Request{SessionID: "s", Questions: []Question{q("Which CI?", "CI", "GitHub", "GitLab"), secretQ()}})
	require.NoError(t, err)
	assert.Equal(t, []bool{false, true}, marks)
	assert.Equal(t, typedSecret, res.Answers[1].Answer.Custom)
	assert.False(t, AskingSecret(ctx))
}

type markingPeer struct {
	*fakePeer
	marks *[]bool
}

func (m markingPeer) RequestPermission(ctx context.Context, params []byte) ([]byte, error) {
	*m.marks = append(*m.marks, AskingSecret(ctx))
	return m.fakePeer.RequestPermission(ctx, params)
}
