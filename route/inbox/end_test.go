package inbox

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/askbridge/askbridge/permission"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// --watch offers a skipped set again once the others are done and it has
// rested skipAgain; without --watch a skipped set is not asked again.
func TestInboxOffersASkippedSetAgainInWatch(t *testing.T) {
	ib := &inbox{skipped: map[string]time.Time{}}
	q := []Question{{Question: "?"}}
	sets := []Set{{ID: "old", Questions: q}, {ID: "new", Questions: q}}
	ib.skipped["old"] = time.Now()
	s, ok := ib.next(sets, true)
	require.True(t, ok)
	assert.Equal(t, "new", s.ID, "a set nobody skipped first")

	ib.skipped["new"] = time.Now()
	_, ok = ib.next(sets, true)
	assert.False(t, ok, "both skipped just now: nothing is asked in a loop")

	ib.skipped["old"] = time.Now().Add(-skipAgain)
	s, ok = ib.next(sets, false)
	assert.False(t, ok, "without --watch a skip is final: %v", s)
	s, ok = ib.next(sets, true)
	require.True(t, ok)
	assert.Equal(t, "old", s.ID, "rested long enough, it is offered again")
	assert.NotContains(t, ib.skipped, "old", "and is an ordinary set again")
}

// How a set ended elsewhere is said in permission.Sources' words, with the
// device the decisions log names; an answer the hub took is said too.
func TestInboxSaysWhereASetEndedAndThatAnAnswerWasSent(t *testing.T) {
	assert.Equal(t, "Answered elsewhere on the hub's page (iPhone).", endedLine(permission.StateAnswered, permission.SourceHub, "iPhone"))
	assert.Equal(t, "Answered elsewhere on the desk's page.", endedLine(permission.StateAnswered, permission.SourceDesk, ""))
	assert.Equal(t, "Cancelled elsewhere in the editor; the agent was told.", endedLine(permission.StateCancelled, permission.SourceClient, ""))
	assert.Equal(t, "Answered elsewhere in another terminal inbox.", endedLine(permission.StateAnswered, permission.SourceInbox, "the terminal inbox"))
	assert.Equal(t, "Answered elsewhere from a notification's button (Pixel 8).", endedLine(permission.StateAnswered, permission.SourceNotification, "Pixel 8"))

	var s Set
	require.NoError(t, json.Unmarshal([]byte(`{"cwd":"/home/u/src/app","instance":{"agent":"claude"}}`), &s))
	assert.Equal(t, "✔ Sent to claude · ~/src/app.", sentLine(s, "/home/u"))
	assert.Equal(t, "✔ Sent.", sentLine(Set{}, "/home/u"))
}
