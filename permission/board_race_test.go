package permission

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The board is shared by the relay, the desk's HTTP handlers and timeouts:
// these run them all at once (go test -race) and check that every set is
// settled exactly once, by one of the racers, with a state that says which.

func TestBoardRacingFrontEnds(t *testing.T) {
	const sessions, sets = 4, 25
	b := NewBoard()
	ctx, stop := context.WithTimeout(t.Context(), 10*time.Second)
	defer stop()
	seen := watchAll(ctx, b)
	stopReading := readWhileRacing(ctx, t, b)
	tickets, wins := raceFrontEnds(t, b, sessions, sets)
	stopReading()

	for _, tk := range tickets {
		select {
		case <-tk.Done():
		case <-ctx.Done():
			t.Fatalf("%s never settled", tk.ID)
		}
		checkOneWinner(t, b, tk, wins[tk.ID])
	}
	assert.Empty(t, b.List())

	for s := range sessions {
		hist, ok := b.History(fmt.Sprintf("s%d", s))
		require.True(t, ok)
		require.Len(t, hist, sets)
		for i, p := range hist {
			assert.Equal(t, i+1, p.Round, "history is in round order")
		}
	}

	stop()
	checkEventOrder(t, seen())
}

// watchAll drains b's events until ctx ends; the func returned waits for
// that and gives them.
func watchAll(ctx context.Context, b *Board) func() []Event {
	events := b.Subscribe(ctx)
	var seen []Event
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		for ev := range events {
			seen = append(seen, ev)
		}
	}()
	return func() []Event { <-watched; return seen }
}

// readWhileRacing runs the readers the desk would run until the func
// returned stops them.
func readWhileRacing(ctx context.Context, t *testing.T, b *Board) (stop func()) {
	readers, readersDone := context.WithCancel(ctx)
	var rg sync.WaitGroup
	for range 3 {
		rg.Go(func() {
			for readers.Err() == nil {
				for _, p := range b.List() {
					assert.Equal(t, StatePending, p.State, "List shows pending sets only")
					b.Get(p.ID)
				}
				b.History("s0")
			}
		})
	}
	return func() { readersDone(); rg.Wait() }
}

// raceOutcome is what one racer got of a set.
type raceOutcome struct {
	who string
	err error
}

// raceFrontEnds opens sets in each of sessions and races the client, the
// desk, a cancel and a timeout on each: what each racer got, by set.
func raceFrontEnds(t *testing.T, b *Board, sessions, sets int) ([]*Ticket, map[string][]raceOutcome) {
	var tickets []*Ticket
	wins := map[string][]raceOutcome{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for s := range sessions {
		session := fmt.Sprintf("s%d", s)
		for range sets {
			round, ok := b.NextRound(session, 0)
			require.True(t, ok)
			tk := b.Open(Request{SessionID: session, Questions: []Question{q("Q?", "H", "a", "b")}, Round: round})
			tickets = append(tickets, tk)
			answer := func(label string) func() error {
				return func() error {
					return b.Settle(tk.ID, Result{Answers: []Answered{{Answer: Answer{Labels: []string{label}}}}}, ByEditor())
				}
			}
			race := map[string]func() error{
				"client":  answer("a"),
				"desk":    answer("b"),
				"cancel":  func() error { return b.Withdraw(tk.ID, "session/cancel", BySelf(SourceClient)) },
				"timeout": func() error { return b.Withdraw(tk.ID, ReasonTimeout, BySelf(SourceTimeout)) },
			}
			for who, do := range race {
				wg.Go(func() {
					err := do()
					mu.Lock()
					wins[tk.ID] = append(wins[tk.ID], raceOutcome{who, err})
					mu.Unlock()
				})
			}
		}
	}
	wg.Wait()
	return tickets, wins
}

// checkOneWinner: one racer settled tk, the others got ErrResolved, and
// its state and result say which.
func checkOneWinner(t *testing.T, b *Board, tk *Ticket, outcomes []raceOutcome) {
	t.Helper()
	var winner string
	for _, o := range outcomes {
		switch {
		case o.err == nil:
			assert.Empty(t, winner, "%s settled twice", tk.ID)
			winner = o.who
		default:
			assert.ErrorIs(t, o.err, ErrResolved)
		}
	}
	p, ok := b.Get(tk.ID)
	require.True(t, ok)
	want := map[string]State{"client": StateAnswered, "desk": StateAnswered, "cancel": StateCancelled, "timeout": StateTimeout}[winner]
	assert.Equal(t, want, p.State, "%s was settled by %s", tk.ID, winner)
	res := tk.Result()
	assert.Equal(t, *p.Result, res)
	switch winner {
	case "client":
		assert.Equal(t, []string{"a"}, res.Answers[0].Answer.Labels)
	case "desk":
		assert.Equal(t, []string{"b"}, res.Answers[0].Answer.Labels)
	case "timeout":
		assert.Equal(t, ReasonTimeout, res.Reason)
	}
	assert.Error(t, tk.Context().Err(), "the ticket's context ends when it is settled")
}

// checkEventOrder: a slow watcher may miss events, but never sees them out
// of order: a set is asked before it is settled, and settled once.
func checkEventOrder(t *testing.T, seen []Event) {
	t.Helper()
	state := map[string]string{}
	for _, ev := range seen {
		switch ev.Type {
		case EventAsked:
			assert.Empty(t, state[ev.Pending.ID], "asked twice")
			state[ev.Pending.ID] = "asked"
		case EventReplied, EventRejected:
			assert.NotEqual(t, "settled", state[ev.Pending.ID], "%s settled twice", ev.Pending.ID)
			state[ev.Pending.ID] = "settled"
			assert.NotEqual(t, StatePending, ev.Pending.State)
		default:
			t.Errorf("unknown event %q", ev.Type)
		}
	}
}

func TestBoardRoundsUnderRace(t *testing.T) {
	b := NewBoard()
	const n, max = 50, 7
	var wg sync.WaitGroup
	var mu sync.Mutex
	rounds := map[int]bool{}
	allowed := 0
	for range n {
		wg.Go(func() {
			r, ok := b.NextRound("s", max)
			mu.Lock()
			defer mu.Unlock()
			if ok {
				allowed++
				assert.False(t, rounds[r], "round %d given twice", r)
				rounds[r] = true
			}
		})
		wg.Go(func() { b.NextRound("other", 0) })
	}
	wg.Wait()
	assert.Equal(t, max, allowed, "exactly max sets in a turn")
	for r := 1; r <= max; r++ {
		assert.True(t, rounds[r], "round %d", r)
	}
	b.ResetTurn("s")
	r, ok := b.NextRound("s", max)
	assert.True(t, ok)
	assert.Equal(t, max+1, r)
	r, ok = b.NextRound("other", 0)
	assert.True(t, ok)
	assert.Equal(t, n+1, r, "sessions count apart")
}

func TestBoardErrorsAndUnsettledTickets(t *testing.T) {
	b := NewBoard()
	assert.ErrorIs(t, b.Settle("q-none", Result{}, ByEditor()), ErrUnknown)
	assert.ErrorIs(t, b.Withdraw("q-none", "x", BySelf(SourceClient)), ErrUnknown)
	assert.False(t, errors.Is(ErrUnknown, ErrResolved), "front ends map them to different statuses (404, 409)")

	tk := b.Open(Request{SessionID: "s", Round: 1})
	assert.NoError(t, tk.Context().Err())
	assert.True(t, tk.Result().Cancelled, "a result read too early is no answer")
	p, ok := b.Get(tk.ID)
	require.True(t, ok)
	assert.Equal(t, StatePending, p.State)
	assert.Nil(t, p.Result)

	require.NoError(t, b.Settle(tk.ID, Result{Cancelled: true, Reason: "the user dismissed the question"}, ByEditor()))
	p, _ = b.Get(tk.ID)
	assert.Equal(t, StateCancelled, p.State, "a cancelled result given as an answer is a cancel")
	assert.ErrorIs(t, b.Settle(tk.ID, Result{}, ByEditor()), ErrResolved)
}

func TestBoardSubscribeEndsWithItsContext(t *testing.T) {
	b := NewBoard()
	ctx, cancel := context.WithCancel(t.Context())
	events := b.Subscribe(ctx)
	tk := b.Open(Request{SessionID: "s", Round: 1})
	ev := <-events
	assert.Equal(t, EventAsked, ev.Type)
	assert.Equal(t, tk.ID, ev.Pending.ID)
	cancel()
	select {
	case _, open := <-events:
		for open {
			_, open = <-events
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the channel is closed when the context ends")
	}
	// Publishing after the watcher left must not block or panic.
	require.NoError(t, b.Withdraw(tk.ID, "late", BySelf(SourceClient)))
}
