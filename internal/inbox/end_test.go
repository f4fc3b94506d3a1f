package inbox

import (
	"testing"
	"time"

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
