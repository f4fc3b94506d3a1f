package permission

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every resolution says where it came from, so that a notifier can tell
// the user "answered at the desk" or "timed out"; callers that do not say
// are the client.
func TestBoardRecordsTheSource(t *testing.T) {
	b := NewBoard()
	events := b.Subscribe(t.Context())
	open := func() string {
		return b.Open(Request{SessionID: "s", Questions: []Question{q("Q?", "H", "a", "b")}}).ID
	}
	cases := []struct {
		name    string
		resolve func(id string) error
		source  Source
		state   State
	}{
		{"client answer", func(id string) error { return b.Answer(id, Result{}) }, SourceClient, StateAnswered},
		{"client dismiss", func(id string) error { return b.Answer(id, Result{Cancelled: true}) }, SourceClient, StateCancelled},
		{"desk answer", func(id string) error { return b.Answer(id, Result{Source: SourceDesk}) }, SourceDesk, StateAnswered},
		{"terminal answer", func(id string) error { return b.Answer(id, Result{Source: SourceTerminal}) }, SourceTerminal, StateAnswered},
		{"desk reject", func(id string) error { return b.CancelFrom(id, SourceDesk, "rejected") }, SourceDesk, StateCancelled},
		{"session cancel", func(id string) error { return b.Cancel(id, "session/cancel") }, SourceClient, StateCancelled},
		{"timeout", func(id string) error { return b.Cancel(id, ReasonTimeout) }, SourceTimeout, StateTimeout},
		{"timeout with the recommended answers", func(id string) error {
			return b.Answer(id, Recommended([]Question{q("Q?", "H", "a", "b")}))
		}, SourceTimeout, StateAnswered},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			id := open()
			assert.Equal(t, EventAsked, (<-events).Type)
			require.NoError(t, c.resolve(id))
			ev := <-events
			require.NotNil(t, ev.Pending.Result)
			assert.Equal(t, c.source, ev.Pending.Result.Source)
			assert.Equal(t, c.state, ev.Pending.State)
			p, _ := b.Get(id)
			assert.Equal(t, c.source, p.Result.Source)
		})
	}
}
