package mcpask

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"runtime/debug"
	"time"

	"github.com/askbridge/askbridge/internal/askwire"
	"github.com/askbridge/askbridge/permission"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Options configure the server.
type Options struct {
	// Socket is the `askbridge ask` socket to ask through; empty means no
	// askbridge to reach, and every call fails at once.
	Socket string
	// Tag names the session whose session/new started this server; askbridge
	// asks in that session.
	Tag string
	// Limits bound a question set, as for `askbridge ask`.
	Limits permission.Limits
	// Logger takes the SDK's logs; nil discards them. stdout is the protocol.
	Logger *slog.Logger
	// ProgressEvery and ProgressFor pace the progress notifications sent
	// while nobody has answered (progress.go); zero means the constants,
	// a negative ProgressFor none at all.
	ProgressEvery, ProgressFor time.Duration

	// streams, set by HTTP, tell a call whose POST was dropped (stream.go).
	streams *streams
}

// OptionsFromEnv reads the options askbridge passes in the server's
// environment: ASKBRIDGE_SOCKET, ASKBRIDGE_MCP_TAG, ASKBRIDGE_MCP_PROGRESS
// and the ASK_* limits.
func OptionsFromEnv() (Options, error) {
	lim, err := permission.LimitsFromEnv()
	if err != nil {
		return Options{}, err
	}
	opts := Options{Socket: os.Getenv(askwire.SocketEnv), Tag: os.Getenv(askwire.TagEnv), Limits: lim}
	if v := os.Getenv(ProgressEnv); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			return Options{}, fmt.Errorf("%s=%q: want a duration, 0 for no progress", ProgressEnv, v)
		}
		opts.ProgressFor = NoProgress(d)
	}
	return opts, nil
}

// NoProgress is ProgressFor for a ceiling of d, where 0 means none.
func NoProgress(d time.Duration) time.Duration {
	if d == 0 {
		return -1
	}
	return d
}

// New returns the MCP server with the ask_user_question tool.
func New(opts Options) *mcp.Server {
	if opts.Limits == (permission.Limits{}) {
		opts.Limits = permission.DefaultLimits()
	}
	if opts.ProgressEvery <= 0 {
		opts.ProgressEvery = ProgressEvery
	}
	if opts.ProgressFor == 0 {
		opts.ProgressFor = ProgressFor
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "askbridge", Version: version()}, &mcp.ServerOptions{
		Instructions: instructions,
		Logger:       opts.Logger,
	})
	s.AddTool(Tool(opts.Limits), func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var h http.Header
		if req.Extra != nil {
			h = req.Extra.Header
		}
		ctx, release := withStream(ctx, opts.streams.done(h))
		defer release()
		stop := keepAlive(ctx, req, opts.ProgressEvery, opts.ProgressFor)
		defer stop()
		return call(ctx, opts, req.Params.Arguments)
	})
	return s
}

// Run serves over t (stdio, for `askbridge mcp`) until the client closes
// it (stdin reaches EOF) or ctx ends.
func Run(ctx context.Context, opts Options, t mcp.Transport) error {
	err := New(opts).Run(ctx, t)
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// call is one tools/call: validate with askbridge's rules, then ask.
// Every failure is a tool error result: the model reads it and goes on.
func call(ctx context.Context, opts Options, args json.RawMessage) (*mcp.CallToolResult, error) {
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	qs, err := permission.DecodeAskInput(args)
	if err == nil {
		err = permission.Validate(qs, opts.Limits)
	}
	if err != nil {
		return invalidResult(err), nil
	}
	var in struct {
		Questions json.RawMessage `json:"questions"`
	}
	json.Unmarshal(args, &in)
	res, err := askSocket(ctx, opts.Socket, opts.Tag, in.Questions)
	var ve *permission.ValidationError
	switch {
	case errors.As(err, &ve):
		return invalidResult(err), nil
	case ctx.Err() != nil:
		// The call was cancelled, or stdin closed: nobody reads the result.
		return nil, context.Cause(ctx)
	case err != nil:
		return errorResult(failureText(err)), nil
	case res.Cancelled && res.Reason == permission.ReasonTimeout:
		return timeoutResult(), nil
	case res.Cancelled:
		return errorResult(cancelText(res.Reason)), nil
	}
	return answersResult(res), nil
}

// version is the module version askbridge was built at.
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}
