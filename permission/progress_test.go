package permission

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A set answered a step at a time gives the same answers, in the same
// order, as the client's flow asking the same picks one by one.
func TestProgressAsksFollowUpsAndMatchesTheClientFlow(t *testing.T) {
	auth := multi(q("Which auth?", "Auth", "OAuth", "SAML", "None"))
	auth.FollowUps = map[string][]Question{
		"OAuth": {q("Which provider?", "Provider", "GitHub", "Google"), multi(q("Which scopes?", "Scopes", "read", "write"))},
		"SAML":  {chain(1)},
	}
	qs := []Question{auth, q("Which database?", "DB", "Postgres", "SQLite")}

	b := NewBoard()
	events := b.Subscribe(t.Context())
	tk := b.Open(Request{SessionID: "s", Questions: qs, Round: 1})
	<-events
	p, _ := b.Get(tk.ID)
	require.Len(t, p.Asking, 2)
	assert.Equal(t, "questions[1]", p.Asking[1].Path)

	done, err := b.ProgressBy(tk.ID, 0, []Answer{{Labels: []string{"OAuth", "SAML"}}, {Labels: []string{"SQLite"}}}, editor)
	require.NoError(t, err)
	assert.False(t, done, "follow-ups are still to answer")
	ev := <-events
	assert.Equal(t, EventAsked, ev.Type, "the follow-ups are asked")
	assert.Equal(t, 1, ev.Pending.Step)
	var paths []string
	for _, a := range ev.Pending.Asking {
		paths = append(paths, a.Path)
	}
	assert.Equal(t, []string{`questions[0].followUps["OAuth"][0]`, `questions[0].followUps["OAuth"][1]`, `questions[0].followUps["SAML"][0]`}, paths)
	assert.Equal(t, StatePending, ev.Pending.State)

	_, err = b.ProgressBy(tk.ID, 0, []Answer{{Labels: []string{"None"}}, {Labels: []string{"SQLite"}}}, editor)
	assert.ErrorIs(t, err, ErrStale, "a second front end answering the step that moved on")
	_, err = b.ProgressBy(tk.ID, 1, []Answer{{Labels: []string{"Google"}}}, editor)
	assert.ErrorContains(t, err, "1 answers to 3 questions")

	done, err = b.ProgressBy(tk.ID, 1, []Answer{{Labels: []string{"Google"}}, {Labels: []string{"read", "write"}}, {Labels: []string{"a"}}}, editor)
	require.NoError(t, err)
	assert.False(t, done, "the SAML chain goes one deeper")
	done, err = b.ProgressBy(tk.ID, 2, []Answer{{Other: true, Custom: "deep"}}, editor)
	require.NoError(t, err)
	assert.True(t, done)
	<-tk.Done()
	_, err = b.ProgressBy(tk.ID, 3, nil, editor)
	assert.ErrorIs(t, err, ErrResolved)

	peer := &fakePeer{respond: script(
		`{"outcome":{"outcome":"selected","optionId":"OAuth","_meta":{"selectedOptionIds":["OAuth","SAML"]}}}`,
		selected("Google"),
		`{"outcome":{"outcome":"selected","optionId":"read","_meta":{"selectedOptionIds":["read","write"]}}}`,
		selected("a"),
		otherWith("deep"),
		selected("SQLite"))}
	want, err := Ask(t.Context(), peer, Request{SessionID: "s", ToolCallID: "c", Questions: qs})
	require.NoError(t, err)
	assert.Equal(t, want.Answers, tk.Result().Answers)
}
