package hub

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/permission/permissiontest"
)

// A set's note (the agent stopped waiting for it) shows on the hub's card
// too, and comes back with the set when a restarted hub is told its sets
// again; the set stays answerable there. (Before, the hub never heard of it.)
func TestASetsNoteReachesTheHub(t *testing.T) {
	path := socket(t)
	_, hb, stop := startHub(t, path)
	b, _ := report(t, path, "/src")
	tk := ask(b, "s", "Q?")
	waitPending(t, hb, 1)
	require.NoError(t, b.Note(tk.ID, "The agent stopped waiting."))
	require.Eventually(t, func() bool {
		l := hb.List()
		return len(l) == 1 && l[0].Note == "The agent stopped waiting."
	}, 5*time.Second, 10*time.Millisecond)

	stop()
	_, hb2, _ := startHub(t, path)
	p := waitPending(t, hb2, 1)[0]
	assert.Equal(t, "The agent stopped waiting.", p.Note)
	_, err := hb2.ProgressBy(p.ID, 0, []permission.Answer{{Labels: []string{"a"}}}, permissiontest.InProcess(""))
	require.NoError(t, err)
	select {
	case <-tk.Done():
		assert.Equal(t, []string{"a"}, tk.Result().Answers[0].Answer.Labels)
	case <-time.After(5 * time.Second):
		t.Fatal("the hub's answer did not reach the askbridge")
	}
}
