package hub

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

// drain reads the messages waiting on the link, by type and set id.
func drain(l *link) []string {
	var out []string
	for {
		select {
		case b := <-l.out:
			var m message
			json.Unmarshal(b, &m)
			out = append(out, m.Type+" "+m.Set.ID)
		default:
			return out
		}
	}
}

// A reporter whose link is full does not drop the link nor lose a set's
// end: it stops queueing, and once there is room tells the hub what it
// missed, the pending sets it never told and the end of those it told.
func TestTellerReconcilesAfterTheLinkWasFull(t *testing.T) {
	board := permission.NewBoard()
	l := &link{out: make(chan []byte, 2)}
	tl := &teller{l: l, board: board, told: map[string]bool{}}
	a, b, c := ask(board, "s", "A?"), ask(board, "s", "B?"), ask(board, "s", "C?")
	require.False(t, tl.reconcile(), "two fit, the third does not")
	assert.True(t, tl.behind)
	assert.Equal(t, []string{"asked " + a.ID, "asked " + b.ID}, drain(l))

	require.NoError(t, board.Settle(a.ID, permission.Result{}, permission.ByEditor()))
	p, _ := board.Get(a.ID)
	if !tl.behind { // as session does: nothing is queued while behind
		tl.event(permission.Event{Type: permission.EventReplied, Pending: p})
	}
	assert.Empty(t, drain(l))
	require.True(t, tl.reconcile())
	assert.False(t, tl.behind)
	assert.ElementsMatch(t, []string{"asked " + c.ID, "ended " + a.ID}, drain(l))
	assert.Equal(t, map[string]bool{b.ID: true, c.ID: true}, tl.told)

	require.NoError(t, board.Withdraw(b.ID, "no", permission.BySelf(permission.SourceClient)))
	p, _ = board.Get(b.ID)
	tl.event(permission.Event{Type: permission.EventRejected, Pending: p})
	assert.Equal(t, []string{"ended " + b.ID}, drain(l))
	assert.Equal(t, map[string]bool{c.ID: true}, tl.told)
}
