package permission

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A note changes what the card says, once per change, and leaves the set
// pending; a resolved set takes none.
func TestNoteIsPublishedAndLeavesTheSetPending(t *testing.T) {
	b := NewBoard()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events := b.Subscribe(ctx)
	tk := b.Open(Request{SessionID: "s", Questions: []Question{{Question: "Q?", Header: "H", Options: []Option{{Label: "a"}, {Label: "b"}}}}})
	require.NoError(t, b.Note(tk.ID, "stopped waiting"))
	require.NoError(t, b.Note(tk.ID, "stopped waiting")) // no change, no event
	p, _ := b.Get(tk.ID)
	assert.Equal(t, StatePending, p.State)
	assert.Equal(t, "stopped waiting", p.Note)
	var types []EventType
	for len(types) < 2 {
		select {
		case ev := <-events:
			types = append(types, ev.Type)
		case <-time.After(2 * time.Second):
			t.Fatalf("events: %v", types)
		}
	}
	assert.Equal(t, []EventType{EventAsked, EventNoted}, types)
	require.NoError(t, b.Withdraw(tk.ID, "x", BySelf(SourceClient)))
	assert.ErrorIs(t, b.Note(tk.ID, "late"), ErrResolved)
}
