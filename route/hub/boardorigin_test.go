package hub

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

// The hub's board carries each askbridge's origin on its sets: a mode
// switched while a set waits reaches its card (an event, for the page to
// redraw), and once the set has ended and its askbridge has left, the
// hub's history still says where it came from, as it was.
func TestTheHubsSetsCarryTheirAskbridgesOriginIntoTheHistory(t *testing.T) {
	path := socket(t)
	h, hb, _ := startHub(t, path)
	events := hb.Subscribe(t.Context())
	board := permission.NewBoard()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	rep := Report(ctx, board, path, Instance{Agent: "Claude Code", PID: os.Getpid(), Host: "devbox", CWD: "/home/ann"}, nil)
	rep.Update(func(i *Instance) { i.Sessions = map[string]string{"s": "/home/ann/src/api"} })
	tk := ask(board, "s", "Q?")
	id := waitPending(t, hb, 1)[0].ID
	require.Eventually(t, func() bool {
		p, _ := hb.Get(id)
		return p.Origin != nil && p.Origin.Folder == "/home/ann/src/api"
	}, 5*time.Second, 10*time.Millisecond)

	rep.Update(func(i *Instance) { i.Modes = map[string]SessionMode{"s": {ID: "plan", Name: "Plan"}} })
	deadline := time.After(5 * time.Second)
	for seen := false; !seen; {
		select {
		case ev := <-events:
			seen = ev.Type == permission.EventOrigin && ev.Pending.ID == id && ev.Pending.Origin.Mode != nil && ev.Pending.Origin.Mode.ID == "plan"
		case <-deadline:
			t.Fatal("the hub's page was not told the set's mode changed")
		}
	}

	require.NoError(t, board.Settle(tk.ID, permission.Result{Answers: []permission.Answered{{Answer: permission.Answer{Labels: []string{"a"}}}}}, permission.ByEditor()))
	require.Eventually(t, func() bool { return len(hb.List()) == 0 }, 5*time.Second, 10*time.Millisecond)
	cancel() // the askbridge leaves
	require.Eventually(t, func() bool { return len(h.Instances()) == 0 }, 5*time.Second, 10*time.Millisecond)
	p, _ := hb.Get(id)
	hist, ok := hb.History(p.SessionID)
	require.True(t, ok)
	require.Len(t, hist, 1)
	o := hist[0].Origin
	require.NotNil(t, o, "the history says where an ended set came from")
	assert.Equal(t, "Claude Code", o.Agent)
	assert.Equal(t, "devbox", o.Host)
	assert.Equal(t, "/home/ann/src/api", o.Folder)
	require.NotNil(t, o.Mode)
	assert.Equal(t, "plan", o.Mode.ID)
	assert.Nil(t, o.Sessions, "a set's origin is its session's, the others' not shown")
}
