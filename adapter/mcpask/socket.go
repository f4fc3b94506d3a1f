package mcpask

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/askbridge/askbridge/internal/askwire"
	"github.com/askbridge/askbridge/internal/sockdir"
	"github.com/askbridge/askbridge/permission"
	"github.com/sourcegraph/jsonrpc2"
)

// stoppedWaitingTimeout bounds telling askbridge the host stopped waiting.
const stoppedWaitingTimeout = 2 * time.Second

// codeInvalidParams is JSON-RPC's invalid params: askbridge's answer to a
// question set it will not ask, with the violations in its data.
const codeInvalidParams = -32602

// dialTimeout bounds reaching askbridge: a socket that takes longer is as
// good as absent, and the model must not wait on it.
const dialTimeout = 2 * time.Second

// errUnreachable is askbridge not being there to ask.
var errUnreachable = errors.New("askbridge is not reachable")

// errGone is askbridge closing the connection before an answer.
var errGone = errors.New("askbridge closed the connection before the user answered")

// askSocket asks the question set through askbridge's socket and returns
// the outcome. questions is the tool input's questions, passed on as the
// model wrote them.
func askSocket(ctx context.Context, path, tag string, questions json.RawMessage) (permission.Result, error) {
	if path == "" {
		return permission.Result{}, fmt.Errorf("%w: %s is not set, so this server was not started by askbridge", errUnreachable, askwire.SocketEnv)
	}
	dialCtx, cancel := context.WithTimeout(ctx, dialTimeout)
	c, err := sockdir.Dial(dialCtx, path) // its folder checked: this user's alone
	cancel()
	if err != nil {
		return permission.Result{}, fmt.Errorf("%w at %s=%s: %v", errUnreachable, askwire.SocketEnv, path, err)
	}
	// The connection outlives ctx: when the host ends the call, askbridge
	// is told so on it before it closes.
	conn := jsonrpc2.NewConn(context.WithoutCancel(ctx), jsonrpc2.NewPlainObjectStream(c), jsonrpc2.HandlerWithError(func(context.Context, *jsonrpc2.Conn, *jsonrpc2.Request) (any, error) {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "askbridge mcp takes no requests"}
	}))
	// Closing withdraws a question still open: askbridge cancels a set
	// whose asker disconnected.
	defer conn.Close()
	params := askwire.Params{Questions: questions, Format: "result", MCPTag: tag}
	var res permission.Result
	err = conn.Call(ctx, askwire.Method, params, &res)
	var rpcErr *jsonrpc2.Error
	switch {
	case err == nil:
		return res, nil
	case ctx.Err() != nil:
		if hostStopped(context.Cause(ctx)) {
			// askbridge keeps the question for a later answer, which it
			// then hands the model another way.
			tell, cancel := context.WithTimeout(context.Background(), stoppedWaitingTimeout)
			conn.Call(tell, askwire.StoppedWaitingMethod, askwire.StoppedWaiting{Reason: context.Cause(ctx).Error()}, nil)
			cancel()
		}
		return permission.Result{}, context.Cause(ctx)
	case errors.Is(err, jsonrpc2.ErrClosed):
		return permission.Result{}, errGone
	case errors.As(err, &rpcErr):
		return permission.Result{}, fromRPCError(rpcErr)
	default:
		return permission.Result{}, fmt.Errorf("asking askbridge: %v", err)
	}
}

// hostStopped reports whether a call ended with cause because its host
// ended it (its timeout, notifications/cancelled, the HTTP request
// dropped): the SDK cancels the call then without a cause of its own. A
// call ended because the connection did (stdin closed: the agent is gone)
// has the read's error as its cause, and its question is withdrawn.
func hostStopped(cause error) bool {
	return errors.Is(cause, context.Canceled) || errors.Is(cause, context.DeadlineExceeded)
}

// fromRPCError reads askbridge's error: a ValidationError when it refused
// the set (its limits may differ from this process's), else its message.
func fromRPCError(e *jsonrpc2.Error) error {
	if e.Code == codeInvalidParams && e.Data != nil {
		var data struct{ Violations []string }
		if json.Unmarshal(*e.Data, &data) == nil && len(data.Violations) > 0 {
			ve := &permission.ValidationError{}
			for _, v := range data.Violations {
				path, msg, _ := strings.Cut(v, ": ")
				ve.Violations = append(ve.Violations, permission.Violation{Path: path, Message: msg})
			}
			return ve
		}
	}
	return fmt.Errorf("askbridge did not ask: %s", e.Message)
}
