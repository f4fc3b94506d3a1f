package permission

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRestoredSetsAreHistoryNeverPending(t *testing.T) {
	old := NewBoard()
	tk := old.Open(Request{SessionID: "a1/s", Round: 1, Questions: []Question{{Question: "Pick?", Header: "P", Options: []Option{{Label: "x"}, {Label: "y"}}}}})
	require.NoError(t, old.Settle(tk.ID, Result{Answers: []Answered{{Question: Question{Question: "Pick?"}, Answer: Answer{Labels: []string{"y"}}}}}, ByEditor()))
	ended, _ := old.Get(tk.ID)

	b := NewBoard()
	require.NoError(t, b.Restore(ended))
	got, ok := b.History("a1/s")
	require.True(t, ok)
	require.Len(t, got, 1)
	assert.Equal(t, StateAnswered, got[0].State)
	assert.Equal(t, "y", got[0].Result.Answers[0].Answer.Text())
	assert.Empty(t, b.List(), "a restored set is never pending")
	assert.ErrorIs(t, b.Settle(tk.ID, Result{}, ByEditor()), ErrResolved)
	assert.Equal(t, []string{"a1/s"}, b.Sessions())

	next := b.Open(Request{SessionID: "a1/s", Round: 2, Questions: ended.Questions})
	assert.NotEqual(t, tk.ID, next.ID, "a later set gets an id after the restored ones")
	round, _ := b.NextRound("a1/s", 0)
	assert.Equal(t, 2, round, "rounds go on after the restored ones")

	assert.Error(t, b.Restore(ended), "twice")
	pending := ended
	pending.State = StatePending
	assert.Error(t, b.Restore(pending))
	bad := ended
	bad.ID = "x7"
	assert.Error(t, b.Restore(bad))
}

// A crafted history line cannot bring the board's ids or rounds near their
// end: an id or round beyond MaxRestored is refused, and the sets opened
// after the largest one allowed get ids that still count up.
func TestRestoreBoundsIDsAndRounds(t *testing.T) {
	ended := Pending{ID: "q1", SessionID: "a1/s", Round: 1, State: StateCancelled}
	b := NewBoard()
	for _, bad := range []Pending{
		{ID: "q9223372036854775807", SessionID: "a1/s", Round: 1, State: StateCancelled},
		{ID: "q1099511627777", SessionID: "a1/s", Round: 1, State: StateCancelled},
		{ID: "q2", SessionID: "a1/s", Round: 1 << 62, State: StateCancelled},
		{ID: "q3", SessionID: "a1/s", Round: -1, State: StateCancelled},
	} {
		assert.Error(t, b.Restore(bad), bad.ID)
	}
	require.NoError(t, b.Restore(ended))
	top := ended
	top.ID, top.Round = "q1099511627776", MaxRestored
	require.NoError(t, b.Restore(top))
	next := b.Open(Request{SessionID: "a1/s"})
	assert.Equal(t, "q1099511627777", next.ID)
	round, _ := b.NextRound("a1/s", 0)
	assert.Equal(t, MaxRestored+1, round)
	h, _ := b.History("a1/s")
	require.Len(t, h, 3)
	assert.Equal(t, []string{"q1", "q1099511627776", "q1099511627777"}, []string{h[0].ID, h[1].ID, h[2].ID})
}
