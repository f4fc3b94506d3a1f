package asksocket

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/askbridge/askbridge/internal/askwire"
	"github.com/askbridge/askbridge/internal/peercred"
)

// Socket is the ask socket, opened before the bridge is made so that the
// dialects' table can be told its path (the MCP ask tool's listing).
type Socket struct {
	ln   net.Listener
	dir  string
	path string
}

// Listen opens the ask socket in a folder only the user can open.
func Listen() (*Socket, error) {
	dir, err := askSocketDir()
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, "ask.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	restrictSocket(path)
	return &Socket{ln: ln, dir: dir, path: path}, nil
}

// Path is the socket's path; "" for none.
func (s *Socket) Path() string {
	if s == nil {
		return ""
	}
	return s.path
}

// Env is the variables to add to the agent's environment; none for no
// socket.
func (s *Socket) Env() []string {
	if s == nil {
		return nil
	}
	return []string{askwire.SocketEnv + "=" + s.path}
}

// Close closes the socket and removes its folder; a nil Socket is none.
func (s *Socket) Close() {
	if s != nil {
		s.ln.Close()
		os.RemoveAll(s.dir)
	}
}

// Serve answers `askbridge ask` with ask, each connection on a goroutine
// of its own, until the returned func is called: it ends every ask still
// open and closes the socket. A nil Socket serves nothing.
func (s *Socket) Serve(ask Asker, logger *slog.Logger) (stop func()) {
	if s == nil {
		return func() {}
	}
	ctx, cancel := context.WithCancel(context.Background())
	go acceptAsks(ctx, s.ln, ask, logger)
	return func() {
		cancel()
		s.Close()
	}
}

// acceptAsks serves each connection to the socket until the socket is
// closed. Any other Accept error (out of descriptors: EMFILE, ENFILE; a
// connection aborted before it was accepted) is retried after a pause that
// doubles up to a second, as net/http does: ending the loop would leave
// every later `askbridge ask` connecting and hanging for ever.
func acceptAsks(ctx context.Context, ln net.Listener, ask Asker, logger *slog.Logger) {
	var pause time.Duration
	for {
		c, err := ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			pause = min(max(2*pause, 5*time.Millisecond), time.Second)
			logger.Warn("askbridge ask socket: accept failed; retrying", "err", err, "in", pause)
			select {
			case <-time.After(pause):
			case <-ctx.Done():
				return
			}
			continue
		}
		pause = 0
		if err := sameUser(c); err != nil {
			logger.Warn("askbridge ask socket: refused a connection", "err", err)
			c.Close()
			continue
		}
		go serveConn(ctx, c, ask, logger)
	}
}

// sameUser refuses a peer of another uid where the OS tells it
// (peercred): the folder's 0700 and the socket's 0600 say so too, but a
// mode is easily loosened.
func sameUser(c net.Conn) error {
	uc, ok := c.(*net.UnixConn)
	if !ok || !peercred.Supported {
		return nil
	}
	cred, err := peercred.Get(uc)
	if err != nil {
		return err
	}
	if cred.UID != os.Getuid() {
		return fmt.Errorf("peer pid %d is uid %d, not askbridge's %d", cred.PID, cred.UID, os.Getuid())
	}
	return nil
}
