package hub

import (
	"crypto/tls"

	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/askbridge/askbridge/internal/hubkey"
	"github.com/askbridge/askbridge/internal/peercred"
	"github.com/askbridge/askbridge/internal/sockdir"
)

// SocketEnv names the socket's path.
const SocketEnv = "ASKBRIDGE_HUB"

// ErrRunning is Listen finding a hub that answers on the socket.
var ErrRunning = errors.New("a hub is already running")

// SocketPath is where the hub listens and askbridges look for it:
// $ASKBRIDGE_HUB, else hub.sock in askbridge's private folder for sockets
// (sockdir.Base: $XDG_RUNTIME_DIR/askbridge, macOS's per-user
// $TMPDIR/askbridge, else askbridge in the user's cache folder). A folder
// that fails sockdir's checks is still named: Listen and Report refuse it
// with what is wrong.
func SocketPath() string {
	if p := os.Getenv(SocketEnv); p != "" {
		return p
	}
	dir, _ := sockdir.Base()
	return filepath.Join(dir, "hub.sock")
}

// Listen opens the hub's socket at path, with the hub's key (hubkey.Path,
// made on the first start) proved to every client on it, the socket 0600, once its folder
// (made 0700 when missing) checks out: this user's alone (sockdir.Check),
// else the hub would serve, or take over, a socket another user can
// replace. A hub holding the lock beside it (path.lock), or a socket that
// answers, is a running hub (ErrRunning); a socket that does not is left
// by a crashed hub, and taken over.
func Listen(path string) (*Listener, error) {
	dir := filepath.Dir(path)
	if _, err := os.Lstat(dir); errors.Is(err, os.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("the hub's folder: %w", err)
		}
	}
	if err := sockdir.Check(dir); err != nil {
		return nil, err
	}
	key, hubTLS, inboxTLS, err := openKey()
	if err != nil {
		return nil, err
	}
	lock, err := takeLock(path + ".lock")
	if err != nil {
		return nil, err
	}
	ln, err := listenLocked(path)
	if err != nil {
		lock.Close()
		return nil, err
	}
	l := &Listener{UnixListener: ln, lock: lock, Key: key, tlsHub: hubTLS, tlsInbox: inboxTLS}
	listening.Store(path, true)
	listening.Store(InboxPath(path), true)
	if peercred.Supported {
		if l.Inbox, err = listenInbox(InboxPath(path)); err != nil {
			l.Close()
			return nil, err
		}
	}
	return l, nil
}

// openKey opens the hub's key (made on the first start: hubkey.Open) and
// the TLS of each socket with it.
func openKey() (*hubkey.Key, *tls.Config, *tls.Config, error) {
	path, err := hubkey.Path()
	if err != nil {
		return nil, nil, nil, err
	}
	key, err := hubkey.Open(path)
	if err != nil {
		return nil, nil, nil, err
	}
	hubTLS, err := key.ServerTLS(hubkey.ALPNHub)
	if err != nil {
		return nil, nil, nil, err
	}
	inboxTLS, err := key.ServerTLS(hubkey.ALPNInbox)
	return key, hubTLS, inboxTLS, err
}

// listenLocked takes the socket over, the lock held.
func listenLocked(path string) (*net.UnixListener, error) {
	if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
		c.Close() // a hub of a version without the lock
		return nil, fmt.Errorf("%w on %s", ErrRunning, path)
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("removing the stale socket %s: %w", path, err)
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, err
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, err
	}
	return ln, nil
}
