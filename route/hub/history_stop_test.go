package hub

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A hub that stops keeps no set still waiting at its askbridge: the set did
// not end, and the next hub gets it back pending. An askbridge that dies
// while the hub runs has its set kept as cancelled.
func TestAHubThatStopsKeepsNoPendingSetAsCancelled(t *testing.T) {
	path := socket(t)
	file := filepath.Join(t.TempDir(), "hub-history.jsonl")
	store, err := OpenStore(file, nil)
	require.NoError(t, err)
	h, hb, stop := startHub(t, path)
	h.Keep(store)
	b, _ := report(t, path, "/src/api")
	ask(b, "s", "Still waiting?")
	dies, die := report(t, path, "/src/web")
	ask(dies, "s", "Asked by one that dies?")
	waitPending(t, hb, 2)
	die()
	kept := string(storeLines(t, file, 1))
	assert.Contains(t, kept, "Asked by one that dies?")
	stop()
	time.Sleep(300 * time.Millisecond) // what a stopping hub would write
	got, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Equal(t, 1, strings.Count(string(got), "\n"), "the set still waiting is not kept: %s", got)
}
