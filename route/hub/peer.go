package hub

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"sync"
	"time"

	"github.com/askbridge/askbridge/internal/hubkey"
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
// an agent tree's root while it is connected, once it has had the hub's
// key proved (TLS): a client that does not open TLS (an askbridge older
// than the hub) is refused, logged once per process.
func (h *Hub) serveChecked(ctx context.Context, ln *Listener, c *net.UnixConn, cred peercred.Cred) {
	defer h.askbridges.add(cred.PID)() // from the start: no window in which its tree is outside
	tc := tls.Server(c, ln.tlsHub)
	hctx, cancel := context.WithTimeout(ctx, handshakeTimeout)
	err := tc.HandshakeContext(hctx)
	cancel()
	if errors.Is(err, io.EOF) { // gone before a word: a probe
		tc.Close()
		return
	}
	if err != nil {
		if _, seen := h.refusedTLS.LoadOrStore(cred.PID, true); !seen {
			h.logger.Warn("hub: refused a connection that did not take the hub's key (TLS): an askbridge older than this hub? restart it", "pid", cred.PID, "err", err)
		}
		tc.Close()
		return
	}
	h.serve(ctx, tc, cred.PID)
}

// handshakeTimeout bounds a client's TLS handshake on either socket.
const handshakeTimeout = 5 * time.Second

// warned are the paths whose refusal was logged, with its reason.
var warned sync.Map

// dialHub reaches the hub at path (Dial). A hub refused (an unsafe
// folder, a listener in this askbridge's tree, one without the hub's key)
// is logged once as a warning, each time its reason changes, not as a
// hub that is not there.
func dialHub(ctx context.Context, path string, logger *slog.Logger) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, handshakeTimeout) // a hub just started accepts once it is set up
	defer cancel()
	c, err := Dial(ctx, path, hubkey.ALPNHub)
	if err == nil {
		warned.Delete(path)
	}
	if err != nil && (errors.Is(err, sockdir.ErrUnsafe) || errors.Is(err, ErrRefused)) {
		if last, _ := warned.Swap(path, err.Error()); last != err.Error() {
			logger.Warn("hub: not reporting to "+path, "err", err)
		}
	}
	return c, err
}
