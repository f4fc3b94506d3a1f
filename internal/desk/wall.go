package desk

import (
	"log/slog"
	"net"
	"os"
	"sync/atomic"
	"time"
)

// wall refuses, where the OS tells (loopbackUID), a loopback connection
// from a process of another user: the second wall, behind the page's
// pairing, against another user of the machine who reaches the page (or
// relays it from an address of their own). A connection whose owner cannot
// be told is refused too.
type wall struct {
	net.Listener
	uid    int
	logger *slog.Logger
	last   atomic.Int64 // the last refusal logged (unix nanoseconds)
}

// walled is ln behind the wall where the OS tells a connection's owner.
func walled(ln net.Listener, logger *slog.Logger) net.Listener {
	if !wallSupported {
		return ln
	}
	return &wall{Listener: ln, uid: os.Getuid(), logger: logger}
}

func (w *wall) Accept() (net.Conn, error) {
	for {
		c, err := w.Listener.Accept()
		if err != nil {
			return nil, err
		}
		uid, err := loopbackUID(c)
		if err == errNotLoopback || err == nil && uid == w.uid {
			return c, nil
		}
		c.Close()
		if now := time.Now().UnixNano(); now-w.last.Swap(now) > int64(time.Second) {
			w.logger.Warn("desk: refused a loopback connection of another user", "from", c.RemoteAddr().String(), "uid", uid, "err", err)
		}
	}
}
