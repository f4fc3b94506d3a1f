package asksocket

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/internal/askwire"
)

// Asker asks the question set of an askwire.Method's params, as if the
// agent had sent it, until ctx ends. An error that is a *relay.Error is
// sent as it is; any other as an internal error.
type Asker func(ctx context.Context, params json.RawMessage) (any, error)

// StoppedWaiting is the cause of an ask's context when the ask tool's MCP
// host ended the tool call (askwire.StoppedWaitingMethod): the question
// may stay answerable, for a late answer.
type StoppedWaiting struct{ Reason string }

func (e StoppedWaiting) Error() string { return "the agent stopped waiting: " + e.Reason }

// serveConn serves one `askbridge ask` connection until it or ctx ends.
func serveConn(ctx context.Context, c net.Conn, ask Asker, logger *slog.Logger) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	// The handlers use ctx, not the context jsonrpc2 gives them: that one
	// ends, without a cause, as soon as the connection does, and the cause
	// says whether the question stays answerable (StoppedWaiting).
	h := jsonrpc2.HandlerWithError(func(_ context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
		if req.Method == askwire.StoppedWaitingMethod {
			// The ask tool's MCP host ended the call: the question stays
			// answerable, for a late answer.
			var p askwire.StoppedWaiting
			if req.Params != nil {
				json.Unmarshal(*req.Params, &p)
			}
			logger.Debug("askbridge ask socket: the ask tool's host stopped waiting", "why", p.Reason)
			cancel(StoppedWaiting{Reason: p.Reason})
			return nil, nil
		}
		if req.Method != askwire.Method {
			return nil, &jsonrpc2.Error{Code: relay.CodeMethodNotFound, Message: "askbridge: unknown method " + req.Method}
		}
		if req.Params == nil || !json.Valid(*req.Params) || (*req.Params)[0] != '{' {
			return nil, &jsonrpc2.Error{Code: relay.CodeInvalidParams, Message: "askbridge: params must be an object with questions"}
		}
		res, err := ask(ctx, *req.Params)
		if err != nil {
			return nil, wireError(err)
		}
		return res, nil
	})
	// The host's stopping is read in order, before the connection's end
	// can withdraw the question; the rest each on a goroutine of its own.
	conn := jsonrpc2.NewConn(ctx, relay.NewLineStream(c, c, c, logger), inlineStop{h, jsonrpc2.AsyncHandler(h)},
		jsonrpc2.SetLogger(slog.NewLogLogger(logger.Handler(), slog.LevelDebug)))
	select {
	case <-conn.DisconnectNotify():
		// The asking command went away (killed, or Ctrl-C): withdraw its question.
		cancel(errors.New("askbridge ask disconnected"))
	case <-ctx.Done():
		conn.Close()
	}
}

// wireError is an Asker's error as jsonrpc2 sends it.
func wireError(err error) *jsonrpc2.Error {
	var rpcErr *relay.Error
	if !errors.As(err, &rpcErr) {
		rpcErr = relay.Internal("askbridge: "+err.Error(), nil)
	}
	e := &jsonrpc2.Error{Code: int64(rpcErr.Code), Message: rpcErr.Message}
	if rpcErr.Data != nil {
		e.SetError(rpcErr.Data)
	}
	return e
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
