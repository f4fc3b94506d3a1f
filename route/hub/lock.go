package hub

import (
	"crypto/tls"

	"github.com/askbridge/askbridge/internal/hubkey"

	"errors"
	"fmt"
	"net"
	"os"
	"sync"
)

// Listener is the hub's socket, holding the lock that makes its hub the
// one on that path: two hubs started at once on a stale socket cannot both
// take it over.
type Listener struct {
	*net.UnixListener
	// Inbox is the terminal inbox's socket beside it (InboxPath), nil where
	// the OS does not tell a peer's credentials (ServeInbox).
	Inbox *net.UnixListener
	// Key is the hub's key pair (hubkey), which it proves on both
	// sockets (tlsHub, tlsInbox: TLS of that key).
	Key              *hubkey.Key
	tlsHub, tlsInbox *tls.Config
	lock             *os.File
	close            sync.Once
}

// Close closes the sockets and lets the lock go.
func (l *Listener) Close() error {
	err := net.ErrClosed
	l.close.Do(func() {
		err = l.UnixListener.Close()
		if l.Inbox != nil {
			l.Inbox.Close()
		}
		l.lock.Close() // closing the file ends its lock
	})
	return err
}

// errLocked is lockFile finding the lock held.
var errLocked = errors.New("locked")

// takeLock opens path (0600) and locks it for as long as the file stays
// open; a lock another process (or another open file) holds is ErrRunning.
func takeLock(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("the hub's lock %s: %w", path, err)
	}
	if err := lockFile(f); err != nil {
		f.Close()
		if errors.Is(err, errLocked) {
			return nil, fmt.Errorf("%w: another hub holds %s", ErrRunning, path)
		}
		return nil, fmt.Errorf("the hub's lock %s: %w", path, err)
	}
	return f, nil
}
