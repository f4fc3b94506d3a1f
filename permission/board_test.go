package permission

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBoardFirstAnswerWins(t *testing.T) {
	b := NewBoard()
	events := b.Subscribe(t.Context())
	tk := b.Open(Request{SessionID: "s", Questions: []Question{q("Q?", "H", "a", "b")}, Round: 1})
	assert.Equal(t, EventAsked, (<-events).Type)
	assert.Len(t, b.List(), 1)

	var wg sync.WaitGroup
	wins := make(chan error, 10)
	for range 10 {
		wg.Go(func() {
			wins <- b.Settle(tk.ID, Result{Answers: []Answered{{Answer: Answer{Labels: []string{"a"}}}}}, ByEditor())
		})
	}
	wg.Wait()
	close(wins)
	var ok, resolved int
	for err := range wins {
		switch err {
		case nil:
			ok++
		case ErrResolved:
			resolved++
		}
	}
	assert.Equal(t, 1, ok)
	assert.Equal(t, 9, resolved)
	<-tk.Done()
	assert.Equal(t, []string{"a"}, tk.Result().Answers[0].Answer.Labels)
	assert.Equal(t, EventReplied, (<-events).Type)
	assert.Empty(t, b.List())
	assert.ErrorIs(t, b.Withdraw(tk.ID, "late", BySelf(SourceClient)), ErrResolved)
	assert.ErrorIs(t, b.Settle("nope", Result{}, ByEditor()), ErrUnknown)
}

func TestBoardStatesAndHistory(t *testing.T) {
	b := NewBoard()
	one := b.Open(Request{SessionID: "s", Round: 1})
	two := b.Open(Request{SessionID: "s", Round: 2})
	three := b.Open(Request{SessionID: "s", Round: 3})
	require.NoError(t, b.Withdraw(one.ID, ReasonTimeout, BySelf(SourceTimeout)))
	require.NoError(t, b.Withdraw(two.ID, "user", BySelf(SourceClient)))
	require.NoError(t, b.Settle(three.ID, Result{}, ByEditor()))
	hist, ok := b.History("s")
	require.True(t, ok)
	var states []State
	for _, p := range hist {
		states = append(states, p.State)
	}
	assert.Equal(t, []State{StateTimeout, StateCancelled, StateAnswered}, states)
	_, ok = b.History("other")
	assert.False(t, ok)
	select {
	case <-one.Done():
	case <-time.After(time.Second):
		t.Fatal("a resolved ticket is done")
	}
}

func TestBoardRoundsPerTurn(t *testing.T) {
	b := NewBoard()
	r, ok := b.NextRound("s", 2)
	assert.Equal(t, 1, r)
	assert.True(t, ok)
	r, ok = b.NextRound("s", 2)
	assert.Equal(t, 2, r)
	assert.True(t, ok)
	_, ok = b.NextRound("s", 2)
	assert.False(t, ok, "the third set of a turn is over the limit")
	r, ok = b.NextRound("t", 2)
	assert.True(t, ok)
	assert.Equal(t, 1, r, "sessions count apart")
	b.ResetTurn("s")
	r, ok = b.NextRound("s", 2)
	assert.True(t, ok)
	assert.Equal(t, 3, r, "round numbers go on across turns")
	for range 20 {
		_, ok = b.NextRound("u", 0)
		assert.True(t, ok, "0 is no limit")
	}
}

func TestBoardSessionsInTheOrderTheyFirstAsked(t *testing.T) {
	b := NewBoard()
	assert.Empty(t, b.Sessions())
	for _, s := range []string{"z", "a", "z", "m", "a"} {
		b.Open(Request{SessionID: s})
	}
	for range 10 {
		b.Open(Request{SessionID: "late"})
	}
	assert.Equal(t, []string{"z", "a", "m", "late"}, b.Sessions())
}
