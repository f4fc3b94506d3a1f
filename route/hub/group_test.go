package hub

import (
	"context"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

// A process that says it is another askbridge (the same agent, folder,
// client and pid) still gets a connection id of its own, and the pid the
// kernel gives, not the one it claims: the page groups by connection, so
// it cannot join the other's group and take the user's typed answer.
func TestAnImpostorGetsItsOwnConnection(t *testing.T) {
	path := socket(t)
	h, hb, _ := startHub(t, path)
	claim := Instance{Agent: "Claude Code", Client: "Zed", PID: 4242, Host: "devbox", CWD: "/src/api"}
	var boards []*permission.Board
	for range 2 {
		b := permission.NewBoard()
		ctx, cancel := context.WithCancel(context.Background())
		t.Cleanup(cancel)
		Report(ctx, b, path, claim, nil)
		boards = append(boards, b)
	}
	ask(boards[0], "s", "Real?")
	waitPending(t, hb, 1)
	ask(boards[1], "s", "Impostor?")
	sets := waitPending(t, hb, 2)
	var ids []string
	var pids []int
	for _, p := range sets {
		var inst *Instance
		require.Eventually(t, func() bool { inst, _ = h.origin(p.ID); return inst.Agent != "" }, 5*time.Second, 10*time.Millisecond)
		ids = append(ids, inst.ID)
		pids = append(pids, inst.PeerPID)
		assert.Equal(t, 4242, inst.PID, "what it says stays what it says")
	}
	assert.NotEqual(t, ids[0], ids[1], "two connections, two groups")
	if runtime.GOOS == "linux" || runtime.GOOS == "darwin" {
		assert.Equal(t, []int{os.Getpid(), os.Getpid()}, pids, "the pid the kernel gives")
	}
}
