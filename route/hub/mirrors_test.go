package hub

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

// A set the hub mirrored is let go once it ended and its answer went
// back: a hub that runs for weeks does not hold every set it ever showed.
func TestTheHubLetsAnEndedSetsMirrorGo(t *testing.T) {
	path := socket(t)
	h, hb, _ := startHub(t, path)
	board := permission.NewBoard()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	Report(ctx, board, path, Instance{Agent: "Claude Code", PID: os.Getpid()}, nil)
	for i := range 3 {
		tk := ask(board, "s", "Q?")
		waitPending(t, hb, 1)
		require.NoError(t, board.Settle(tk.ID, permission.Result{Answers: []permission.Answered{{Answer: permission.Answer{Labels: []string{"a"}}}}}, permission.ByEditor()))
		require.Eventually(t, func() bool { return len(hb.List()) == 0 }, 5*time.Second, 10*time.Millisecond, "set %d", i)
	}
	require.Eventually(t, func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		return len(h.mirrors) == 0
	}, 5*time.Second, 10*time.Millisecond, "the hub still holds the mirrors of sets that ended")
}
