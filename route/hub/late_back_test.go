package hub

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/internal/notes"
	"github.com/askbridge/askbridge/permission"
)

// dropLinks breaks the hub's end of every askbridge's link, as a full
// queue does: the askbridges live on and connect again within Retry.
func dropLinks(h *Hub) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for p := range h.peers {
		p.link.cancel()
	}
}

// An askbridge whose link dropped (it did not stop) reports its late set
// again: the card the hub kept gives way to the one it opens, so the set
// is shown once and answered once, back at the askbridge.
func TestALateSetThatComesBackIsShownOnce(t *testing.T) {
	path := socket(t)
	h, hb, store := lateHub(t, path)
	b, _ := report(t, path, "/src")
	tk, kept := askLate(t, b, hb)
	dropLinks(h)
	require.Eventually(t, func() bool {
		old, _ := hb.Get(kept.ID)
		return old.State == permission.StateCancelled
	}, 5*time.Second, 10*time.Millisecond, "the kept card gives way when the askbridge comes back")
	p := waitNote(t, hb, notes.CardNextPrompt) // told again, as it stands at the askbridge
	assert.NotEqual(t, kept.ID, p.ID)
	answerAtHub(t, hb, p.ID, "a")
	select {
	case <-tk.Done():
		assert.Equal(t, []string{"a"}, tk.Result().Answers[0].Answer.Labels)
	case <-time.After(5 * time.Second):
		t.Fatal("the answer did not reach the askbridge")
	}
	assert.Empty(t, store.Take("s1"), "nothing in the store: the askbridge had it")
}

// Answered at the hub while its askbridge was away, a late set that comes
// back is ended at the askbridge and not shown again: the answer is in
// the store, and only there.
func TestALateSetAnsweredWhileItsAskbridgeWasAwayEndsThere(t *testing.T) {
	path := socket(t)
	h, hb, store := lateHub(t, path)
	b, _ := report(t, path, "/src")
	tk, kept := askLate(t, b, hb)
	dropLinks(h)
	waitNote(t, hb, notes.CardLeft)
	answerAtHub(t, hb, kept.ID, "b") // within Retry: before the askbridge is back
	select {
	case <-tk.Done():
		r := tk.Result()
		assert.True(t, r.Cancelled)
		assert.Contains(t, r.Reason, "answered at the hub")
	case <-time.After(5 * time.Second):
		t.Fatal("the askbridge's set did not end")
	}
	assert.Len(t, waitTaken(t, store, "s1"), 1)
	assert.Empty(t, hb.List(), "not shown again")
}
