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
		{"client answer", func(id string) error { return b.Settle(id, Result{}, ByEditor()) }, SourceClient, StateAnswered},
		{"client dismiss", func(id string) error { return b.Settle(id, Result{Cancelled: true}, ByEditor()) }, SourceClient, StateCancelled},
		{"desk answer", func(id string) error { return b.Settle(id, Result{Source: SourceDesk}, ByEditor()) }, SourceDesk, StateAnswered},
		{"terminal answer", func(id string) error { return b.Settle(id, Result{Source: SourceTerminal}, ByEditor()) }, SourceTerminal, StateAnswered},
		{"desk reject", func(id string) error { return b.Withdraw(id, "rejected", BySelf(SourceDesk)) }, SourceDesk, StateCancelled},
		{"session cancel", func(id string) error { return b.Withdraw(id, "session/cancel", BySelf(SourceClient)) }, SourceClient, StateCancelled},
		{"timeout", func(id string) error { return b.Withdraw(id, ReasonTimeout, BySelf(SourceTimeout)) }, SourceTimeout, StateTimeout},
		{"timeout with the recommended answers", func(id string) error {
			return b.Settle(id, Recommended([]Question{q("Q?", "H", "a", "b")}), ByEditor())
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
