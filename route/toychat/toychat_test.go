package toychat_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route"
	"github.com/askbridge/askbridge/route/toychat"
)

// The toy chat, one folder and one table line, answers a question with a
// signed callback; a forged one is refused for want of the chat's
// credential, and a signed approval for want of the user's presence: the
// gate weighs what the route declared, with no word of it in permission.
func TestAChatRouteWithACredentialOfItsOwn(t *testing.T) {
	key := []byte("the bot's key, shared with askbridge")
	callbacks := make(chan toychat.Callback)
	heard := make(chan error, 1)
	board := permission.NewBoard()
	table := []route.Route{toychat.Chat{Key: key, Callbacks: callbacks, Heard: func(_ toychat.Callback, err error) { heard <- err }}} // its one line
	set, err := route.Start(&route.Env{Ctx: t.Context(), Board: board}, table)
	require.NoError(t, err)
	defer set.Close()

	send := func(cb toychat.Callback) error {
		callbacks <- cb
		select {
		case err := <-heard:
			return err
		case <-time.After(5 * time.Second):
			t.Fatal("the chat heard nothing")
			return nil
		}
	}
	opts := []permission.Option{{Label: "Allow"}, {Label: "Deny"}}
	question := board.Open(permission.Request{SessionID: "s", Questions: []permission.Question{{Question: "Which?", Header: "H", Options: opts}}})
	forged := toychat.Callback{Set: question.ID, Labels: []string{"Allow"}, Who: "mallory", MAC: toychat.Sign([]byte("another key"), question.ID, 0, []string{"Allow"})}
	assert.ErrorIs(t, send(forged), permission.ErrUnvouched, "a forged callback")
	p, _ := board.Get(question.ID)
	assert.Equal(t, permission.StatePending, p.State)

	signed := toychat.Callback{Set: question.ID, Labels: []string{"Allow"}, Who: "ann", MAC: toychat.Sign(key, question.ID, 0, []string{"Allow"})}
	require.NoError(t, send(signed))
	r := question.Result()
	assert.Equal(t, permission.Source("chat"), r.Source)
	assert.Equal(t, "ann in the toy chat", r.Device)
	assert.True(t, r.Proof.Has(toychat.Signed), "the result says what the route checked: %s", r.Proof)

	approval := board.Open(permission.Request{SessionID: "s", Questions: []permission.Question{{Question: "rm -rf build", Header: "Approve", Options: opts}},
		Approval: &permission.Approval{ToolCall: []byte(`{"title":"rm -rf build"}`)}})
	err = send(toychat.Callback{Set: approval.ID, Labels: []string{"Allow"}, Who: "ann", MAC: toychat.Sign(key, approval.ID, 0, []string{"Allow"})})
	assert.ErrorIs(t, err, permission.ErrPresence, "a signed approval without presence")
	assert.Contains(t, err.Error(), "the toy chat", "the refusal names the route as it named itself")
	p, _ = board.Get(approval.ID)
	assert.Equal(t, permission.StatePending, p.State)
}
