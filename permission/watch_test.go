package permission

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A watcher that reads nothing while 500 sets are asked and answered
// still reads every set's asked and final event, in order per set.
func TestSubscribeLosesNoSetToASlowWatcher(t *testing.T) {
	const sets = 500
	b := NewBoard()
	events := b.Subscribe(t.Context())
	for i := range sets {
		tk := b.Open(Request{SessionID: "s", Round: i + 1, Questions: []Question{{Question: "Q?", Header: "H"}}})
		if i%2 == 0 {
			require.NoError(t, b.Settle(tk.ID, Result{}, ByEditor()))
		} else {
			require.NoError(t, b.Withdraw(tk.ID, "no", BySelf(SourceClient)))
		}
	}
	seen := map[string][]EventType{}
	deadline := time.After(10 * time.Second)
	for n := 0; n < 2*sets; n++ {
		select {
		case ev := <-events:
			seen[ev.Pending.ID] = append(seen[ev.Pending.ID], ev.Type)
		case <-deadline:
			t.Fatalf("read %d events of %d", n, 2*sets)
		}
	}
	require.Len(t, seen, sets)
	for id, types := range seen {
		require.Len(t, types, 2, id)
		assert.Equal(t, EventAsked, types[0], id)
		assert.Contains(t, []EventType{EventReplied, EventRejected}, types[1], id)
	}
}

// A set with more intermediate events than a slow watcher keeps merges
// them: the watcher reads its asked event, the latest state, and its end.
func TestSubscribeMergesASetsIntermediateEvents(t *testing.T) {
	b := NewBoard()
	events := b.Subscribe(t.Context())
	for range watchBuffer { // fill the channel
		b.Open(Request{SessionID: "other", Round: 1})
	}
	tk := b.Open(Request{SessionID: "s", Round: 1, Deadline: time.Now().Add(time.Hour)})
	var last time.Time
	for i := range 3 * setBacklog {
		var err error
		last, err = b.Hold(tk.ID, time.Duration(i+2)*time.Hour)
		require.NoError(t, err)
	}
	require.NoError(t, b.Settle(tk.ID, Result{}, ByEditor()))
	var got []Event
	for {
		ev := <-events
		if ev.Pending.ID != tk.ID {
			continue
		}
		got = append(got, ev)
		if final(ev) {
			break
		}
	}
	assert.LessOrEqual(t, len(got), setBacklog+1, "at most the backlog waits for the watcher, besides the one in hand")
	assert.Greater(t, len(got), 2, "the intermediate events before the backlog filled are read")
	assert.Equal(t, EventAsked, got[0].Type)
	assert.Equal(t, EventReplied, got[len(got)-1].Type)
	assert.Equal(t, last, *got[len(got)-1].Pending.Deadline, "the latest state wins")
}
