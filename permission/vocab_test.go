package permission

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The named types change no byte of the wire: an event, its set and its
// result say kind, state, source and type as the plain strings they were.
func TestVocabularyIsPlainStringsOnTheWire(t *testing.T) {
	ev := Event{Type: EventReplied, Pending: Pending{ID: "q1", Kind: KindApproval, State: StateAnswered,
		Result: &Result{Source: SourceNotification}}}
	b, err := json.Marshal(ev)
	require.NoError(t, err)
	var raw struct {
		Type       string `json:"type"`
		Properties struct {
			Kind   string `json:"kind"`
			State  string `json:"state"`
			Result struct {
				Source string `json:"source"`
			} `json:"result"`
		} `json:"properties"`
	}
	require.NoError(t, json.Unmarshal(b, &raw))
	assert.Equal(t, "question.replied", raw.Type)
	assert.Equal(t, "approval", raw.Properties.Kind)
	assert.Equal(t, "answered", raw.Properties.State)
	assert.Equal(t, "notification", raw.Properties.Result.Source)
}

// A history written by a newer askbridge may name a state or a source
// this one does not know: the set is restored as it was written (kept,
// listed, shown with what it said), never pending, never answered again.
// This held before the vocabulary had types; it is here so that typing it
// never becomes refusing what it does not know.
func TestRestoreKeepsAStateAndSourceItDoesNotKnow(t *testing.T) {
	line := `{"id":"q4","kind":"survey","sessionID":"a1/s","questions":[],"asking":[],"step":0,"round":1,` +
		`"asked":"2026-01-02T03:04:05Z","state":"archived","result":{"source":"watch","reason":"filed"}}`
	var p Pending
	require.NoError(t, json.Unmarshal([]byte(line), &p))
	b := NewBoard()
	require.NoError(t, b.Restore(p))

	got, ok := b.History("a1/s")
	require.True(t, ok)
	require.Len(t, got, 1)
	assert.Equal(t, State("archived"), got[0].State)
	assert.Equal(t, Kind("survey"), got[0].Kind)
	require.NotNil(t, got[0].Result)
	assert.Equal(t, Source("watch"), got[0].Result.Source)
	assert.Empty(t, b.List(), "a state it does not know is not pending")
	assert.ErrorIs(t, b.Settle("q4", Result{}, ByEditor()), ErrResolved)
	assert.ErrorIs(t, b.Withdraw("q4", "no", BySelf(SourceDesk)), ErrResolved)
	_, err := b.Hold("q4", 0)
	assert.ErrorIs(t, err, ErrResolved)

	again, err := json.Marshal(got[0])
	require.NoError(t, err)
	assert.Contains(t, string(again), `"state":"archived"`)
	assert.Contains(t, string(again), `"source":"watch"`)
}

func TestOnlyRepliedAndRejectedEndASet(t *testing.T) {
	for _, e := range []EventType{EventAsked, EventHeld, EventExpiring, EventClaimed, EventNoted, "question.unknown"} {
		assert.False(t, e.Final(), e)
	}
	assert.True(t, EventReplied.Final())
	assert.True(t, EventRejected.Final())
}
