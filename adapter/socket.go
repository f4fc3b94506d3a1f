package adapter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/internal/askwire"
	"github.com/askbridge/askbridge/internal/peercred"
	"github.com/sourcegraph/jsonrpc2"
)

// The `askbridge ask` socket: an agent that only has a shell runs
// `askbridge ask '{"questions":[…]}'`, which finds the running askbridge
// through ASKBRIDGE_SOCKET and asks in the editor. The socket lives in a
// directory only the user can open (socketdir.go). It is a Unix socket on
// every OS: Windows has them since Windows 10.

// AskSocket is the ask socket, opened before the bridge is made so that
// the dialects' table can be told its path (the MCP ask tool's listing).
type AskSocket struct {
	ln   net.Listener
	dir  string
	path string
}

// ListenAsk opens the ask socket in a folder only the user can open.
func ListenAsk() (*AskSocket, error) {
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
	return &AskSocket{ln: ln, dir: dir, path: path}, nil
}

// Path is the socket's path; "" for none.
func (s *AskSocket) Path() string {
	if s == nil {
		return ""
	}
	return s.path
}

// Env is the variables to add to the agent's environment; none for no
// socket.
func (s *AskSocket) Env() []string {
	if s == nil {
		return nil
	}
	return []string{askwire.SocketEnv + "=" + s.path}
}

// Close closes the socket and removes its folder, for a socket no bridge
// took (the bridge's Close does it for its own).
func (s *AskSocket) Close() {
	if s != nil {
		s.ln.Close()
		os.RemoveAll(s.dir)
	}
}

// Listen opens the ask socket for a bridge made without one
// (Options.AskSocket) and returns the variables to add to the agent's
// environment. Call it before the agent starts.
func (b *Bridge) Listen() ([]string, error) {
	s, err := ListenAsk()
	if err != nil {
		return nil, err
	}
	b.socket, b.socketDir = s.ln, s.dir
	return s.Env(), nil
}

// serveSocket answers `askbridge ask` until the returned func is called.
func (b *Bridge) serveSocket() func() {
	ln := b.socket
	if ln == nil {
		return func() {}
	}
	ctx, cancel := context.WithCancel(context.Background())
	go b.acceptAsks(ctx, ln)
	return func() {
		cancel()
		b.Close()
	}
}

// acceptAsks serves each connection to the socket until the socket is
// closed. Any other Accept error (out of descriptors: EMFILE, ENFILE; a
// connection aborted before it was accepted) is retried after a pause that
// doubles up to a second, as net/http does: ending the loop would leave
// every later `askbridge ask` connecting and hanging for ever.
func (b *Bridge) acceptAsks(ctx context.Context, ln net.Listener) {
	var pause time.Duration
	for {
		c, err := ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			pause = min(max(2*pause, 5*time.Millisecond), time.Second)
			b.logger.Warn("askbridge ask socket: accept failed; retrying", "err", err, "in", pause)
			select {
			case <-time.After(pause):
			case <-ctx.Done():
				return
			}
			continue
		}
		pause = 0
		if err := sameUser(c); err != nil {
			b.logger.Warn("askbridge ask socket: refused a connection", "err", err)
			c.Close()
			continue
		}
		go b.serveAskConn(ctx, c)
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

// Close removes the ask socket. Setup's cleanup does it too; call it when
// the relay may never have started (the agent could not be started).
func (b *Bridge) Close() {
	if b.socket != nil {
		b.socket.Close()
		os.RemoveAll(b.socketDir)
	}
}

func (b *Bridge) serveAskConn(ctx context.Context, c net.Conn) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	// The handlers use ctx, not the context jsonrpc2 gives them: that one
	// ends, without a cause, as soon as the connection does, and the cause
	// says whether the question stays answerable (stoppedWaiting).
	h := jsonrpc2.HandlerWithError(func(_ context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
		if req.Method == askwire.StoppedWaitingMethod {
			// The ask tool's MCP host ended the call: the question stays
			// answerable, for a late answer (late.go).
			var p askwire.StoppedWaiting
			if req.Params != nil {
				json.Unmarshal(*req.Params, &p)
			}
			b.logger.Debug("askbridge ask socket: the ask tool's host stopped waiting", "why", p.Reason)
			cancel(stoppedWaiting{reason: p.Reason})
			return nil, nil
		}
		if req.Method != askwire.Method {
			return nil, &jsonrpc2.Error{Code: relay.CodeMethodNotFound, Message: "askbridge: unknown method " + req.Method}
		}
		if req.Params == nil || !json.Valid(*req.Params) || (*req.Params)[0] != '{' {
			return nil, &jsonrpc2.Error{Code: relay.CodeInvalidParams, Message: "askbridge: params must be an object with questions"}
		}
		res, err := b.askFromSocket(ctx, *req.Params)
		if err != nil {
			rpcErr := dialect.InvalidQuestions(err)
			e := &jsonrpc2.Error{Code: int64(rpcErr.Code), Message: rpcErr.Message}
			if rpcErr.Data != nil {
				e.SetError(rpcErr.Data)
			}
			return nil, e
		}
		return res, nil
	})
	// The host's stopping is read in order, before the connection's end
	// can withdraw the question; the rest each on a goroutine of its own.
	conn := jsonrpc2.NewConn(ctx, relay.NewLineStream(c, c, c, b.logger), inlineStop{h, jsonrpc2.AsyncHandler(h)},
		jsonrpc2.SetLogger(slog.NewLogLogger(b.logger.Handler(), slog.LevelDebug)))
	select {
	case <-conn.DisconnectNotify():
		// The asking command went away (killed, or Ctrl-C): withdraw its question.
		cancel(errors.New("askbridge ask disconnected"))
	case <-ctx.Done():
		conn.Close()
	}
}

// inlineStop handles askwire.StoppedWaitingMethod on the reading
// goroutine, the rest with async.
type inlineStop struct{ h, async jsonrpc2.Handler }

func (i inlineStop) Handle(ctx context.Context, c *jsonrpc2.Conn, req *jsonrpc2.Request) {
	if req.Method == askwire.StoppedWaitingMethod {
		i.h.Handle(ctx, c, req)
		return
	}
	i.async.Handle(ctx, c, req)
}

// askFromSocket serves an _askbridge/ask that came over the socket as if
// the agent had sent it: the dialect hooked on the method claims it.
func (b *Bridge) askFromSocket(ctx context.Context, params json.RawMessage) (any, error) {
	raw, err := json.Marshal(socketRequest{JSONRPC: "2.0", Method: askwire.Method, Params: params})
	if err != nil {
		return nil, err
	}
	m := &relay.Message{Method: askwire.Method, Raw: raw}
	for _, d := range b.dialects {
		for _, h := range d.Hooks() {
			if h.From != dialect.FromAgent || h.Method != askwire.Method {
				continue
			}
			if c := d.Claim(b, m); c != nil {
				if err := check(c, true); err != nil {
					return nil, b.refused(d, m.Method, err)
				}
				b.inflight.Add(1)
				defer b.inflight.Done()
				return b.serve(ctx, c, b.route(c, true).ask, nil)
			}
		}
	}
	return nil, &relay.Error{Code: relay.CodeMethodNotFound, Message: "askbridge: no dialect takes " + askwire.Method}
}

// socketRequest is the message an ask over the socket stands for.
type socketRequest struct {
	JSONRPC string          `json:"jsonrpc"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
}
