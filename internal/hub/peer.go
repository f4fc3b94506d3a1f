package hub

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"sync"

	"github.com/askbridge/askbridge/internal/peercred"
	"github.com/askbridge/askbridge/internal/sockdir"
)

// checkPeer lets in only a process of the hub's own user, as the kernel
// tells it (peercred): the socket's 0600 mode and its folder's 0700 say
// so too, but a mode is easily loosened. Where the OS cannot tell
// (Windows), the folder's checks are all there is; cred is then zero.
func checkPeer(c *net.UnixConn) (peercred.Cred, error) {
	if !peercred.Supported {
		return peercred.Cred{}, nil
	}
	cred, err := peercred.Get(c)
	if err != nil {
		return cred, err
	}
	if cred.UID != os.Getuid() {
		return cred, fmt.Errorf("peer pid %d is uid %d, not the hub's %d", cred.PID, cred.UID, os.Getuid())
	}
	return cred, nil
}

// askbridges are the pids of the askbridges connected to the hub, as
// their connections' credentials say: every process below one of them is
// in an agent's process tree (askbridge is its agent's child subreaper on
// Linux, so a double fork stays below it too).
type askbridges struct {
	mu   sync.Mutex
	pids map[int]int // pid -> connections
}

func (a *askbridges) add(pid int) func() {
	if pid <= 0 {
		return func() {}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.pids == nil {
		a.pids = map[int]int{}
	}
	a.pids[pid]++
	return func() {
		a.mu.Lock()
		defer a.mu.Unlock()
		if a.pids[pid]--; a.pids[pid] <= 0 {
			delete(a.pids, pid)
		}
	}
}

func (a *askbridges) has(pid int) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.pids[pid] > 0
}

// serveChecked serves an askbridge whose credentials checked out, its pid
// an agent tree's root while it is connected.
func (h *Hub) serveChecked(ctx context.Context, c *net.UnixConn, cred peercred.Cred) {
	defer h.askbridges.add(cred.PID)()
	h.serve(ctx, c, cred.PID)
}

// warned are the paths whose unsafe folder was logged: once each.
var warned sync.Map

// dialHub reaches the hub at path once its folder checks out and its
// listener is this user's (sockdir.Dial); an unsafe folder is logged as a
// warning, not as a hub that is not there.
func dialHub(ctx context.Context, path string, logger *slog.Logger) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, Retry)
	defer cancel()
	c, err := sockdir.Dial(ctx, path)
	if _, seen := warned.LoadOrStore(path, true); errors.Is(err, sockdir.ErrUnsafe) && !seen {
		logger.Warn("hub: not reporting to "+path, "err", err)
	}
	if err != nil {
		return nil, err // a nil *UnixConn is not a nil net.Conn
	}
	return c, nil
}
