package desk

import (
	"log/slog"
	"net"
	"os"

	"github.com/askbridge/askbridge/internal/alarm"
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
		// Counted, and logged once a second with the count: a flood is
		// seen for what it is, and does not fill the log.
		alarm.Note(w.logger, alarm.OtherUser, "from", c.RemoteAddr().String(), "uid", uid, "err", err)
	}
}
