package hub

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// SocketEnv names the socket's path.
const SocketEnv = "ASKBRIDGE_HUB"

// ErrRunning is Listen finding a hub that answers on the socket.
var ErrRunning = errors.New("a hub is already running")

// SocketPath is where the hub listens and askbridges look for it:
// $ASKBRIDGE_HUB, else $XDG_RUNTIME_DIR/askbridge/hub.sock, else
// askbridge-UID/hub.sock in the temporary folder (macOS has no
// XDG_RUNTIME_DIR).
func SocketPath() string {
	if p := os.Getenv(SocketEnv); p != "" {
		return p
	}
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" {
		return filepath.Join(d, "askbridge", "hub.sock")
	}
	return filepath.Join(os.TempDir(), "askbridge-"+strconv.Itoa(os.Getuid()), "hub.sock")
}

// Listen opens the hub's socket at path: its folder made 0700 when it is
// askbridge's own, the socket 0600. A hub holding the lock beside it
// (path.lock), or a socket that answers, is a running hub (ErrRunning); a
// socket that does not is left by a crashed hub, and taken over.
func Listen(path string) (*Listener, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("the hub's folder: %w", err)
	}
	// A folder askbridge names is askbridge's: nobody else gets in, even if
	// it was made by hand with the umask's mode.
	if strings.HasPrefix(filepath.Base(dir), "askbridge") {
		if err := os.Chmod(dir, 0o700); err != nil {
			return nil, fmt.Errorf("the hub's folder: %w", err)
		}
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
	return &Listener{UnixListener: ln, lock: lock}, nil
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
