package proxy

import (
	"context"
	"io"
	"log/slog"
	"time"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/internal/contain"
	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route"
)

// Config is what the proxy's flags say, checked.
type Config struct {
	Command   []string // the agent's
	AgentKind string   // --agent-kind: auto, opencode or generic
	// Routes are the answer routes besides the editor, as the flags set
	// them, started in order (a route may use what an earlier one left).
	Routes []route.Route
	// Bridge are the bridge's options the flags set; Run fills in the
	// board, the dialects, the logger and where else a set can be answered
	// (Routing.Elsewhere, Attended, Routes), which it asks of the routes.
	Bridge      adapter.Options
	InjectAsk   string        // --inject-ask: auto, always or never
	MCPProgress time.Duration // --mcp-progress
	Contain     contain.Mode
	Grace       time.Duration
	MaxLine     int
	Record      io.Writer // nil records nothing
	Logger      *slog.Logger
	// LogFile says the logger writes to --log-file, where what is said on
	// stderr is said too.
	LogFile bool
	Stdin   io.Reader
	Stdout  io.Writer
	Stderr  io.Writer
}

// SetupError is askbridge refusing to start the agent: Code is the exit
// code (2: a flag's value, 1: the agent's command).
type SetupError struct {
	Code int
	Err  error
}

func (e *SetupError) Error() string { return e.Err.Error() }
func (e *SetupError) Unwrap() error { return e.Err }

// Run starts the agent and relays between it and the client on c's stdio
// until either ends, with the desk, the hub's reporter and the notifiers
// the flags ask for. Its errors are relay.Run's, or a *SetupError before
// the agent starts.
func Run(ctx context.Context, c Config) error {
	// A dialect may need its agent started its own way (OpenCode's question
	// server on a port and with a password only askbridge knows).
	sock, err := adapter.ListenAsk()
	if err != nil {
		c.Logger.Warn("askbridge ask will not reach the editor: cannot open its socket", "err", err)
	}
	dialects := adapter.DialectsWith(adapter.DialectConfig{AskTool: askTool(c.InjectAsk, c.MCPProgress, sock.Path(), c.Command, c.Logger)})
	command, env, err := adapter.Launch(dialects, c.Command, c.AgentKind)
	if err != nil {
		sock.Close()
		return &SetupError{Code: 1, Err: err}
	}
	board := permission.NewBoard()
	board.SetLogger(c.Logger)
	describeSelf(board, command)
	renv := &route.Env{Ctx: ctx, Board: board, Command: command, Logger: c.Logger, Stderr: c.Stderr, LogFile: c.LogFile}
	routes, err := route.Start(renv, c.Routes)
	if err != nil {
		sock.Close()
		return &SetupError{Code: 2, Err: err}
	}
	defer routes.Close()
	updates := append([]func(func(*permission.Origin)){board.Describe}, renv.Hear...) // the board's origin, and the hub's
	opts := c.bridge(board, dialects, routes, sock)
	opts.OnMode = showModes(updates...)
	bridge := adapter.NewBridge(opts)
	defer bridge.Close()
	sockEnv := sock.Env()
	env = append(env, sockEnv...)
	return relay.Run(ctx, relay.RunConfig{
		Command: command,
		Env:     env,
		Stdin:   c.Stdin,
		Stdout:  c.Stdout,
		Stderr:  c.Stderr,
		Record:  c.Record,
		Logger:  c.Logger,
		Grace:   c.Grace,
		MaxLine: c.MaxLine,
		Setup:   Origin(bridge.Setup, updates...), // the desk's answers go into --record's recording too
		Contain: container(c.Contain, c.Grace, sockEnv, hubSockets(c.Routes)),
		Started: showContainment(bridge, updates...),
	})
}

// bridge is c.Bridge with what Run made: the board, the dialects, the ask
// socket, and the
// started routes, which say whether anything besides the editor can
// answer (or, for a sign-in outside a session, shows it: a notification
// shows its address too).
func (c *Config) bridge(board *permission.Board, dialects []dialect.Dialect, routes *route.Set, sock *adapter.AskSocket) adapter.Options {
	o := c.Bridge
	o.Board, o.Dialects, o.Logger, o.AskSocket = board, dialects, c.Logger, sock
	o.Agent = c.Command // which agent's own defaults its initialize gets
	o.Routing.Elsewhere, o.Attended, o.Routes = routes.Elsewhere, routes.Attended, routes.Routes
	return o
}
