package proxy

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/internal/contain"
	"github.com/askbridge/askbridge/internal/hub"
	"github.com/askbridge/askbridge/internal/notify"
	"github.com/askbridge/askbridge/permission"
)

// Config is what the proxy's flags say, checked.
type Config struct {
	Command   []string // the agent's
	AgentKind string   // --agent-kind: auto, opencode or generic
	Hub       string   // --hub: auto, off, or the hub's socket
	Desk      Desk
	// Notify are the consumers of question events the flags ask for; Run
	// fills in the desk's address, the buttons' key and the logger.
	Notify notify.Options
	// Bridge are the bridge's options the flags set; Run fills in the
	// board, the dialects, the logger and where else a set can be answered
	// (Routing.Elsewhere, Attended, Routes).
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
	dialects := adapter.Dialects()
	command, env, err := adapter.Launch(dialects, c.Command, c.AgentKind)
	if err != nil {
		return &SetupError{Code: 1, Err: err}
	}
	board := permission.NewBoard()
	board.SetLogger(c.Logger)
	reporter := ReportToHub(ctx, c.Hub, board, command, c.Logger)
	self := newSelfOrigin(board, command)
	updates := []func(func(*hub.Instance)){self.update} // the desk's origin, and the hub's
	if reporter != nil {
		updates = append(updates, reporter.Update)
	}
	c.Desk.Origin, c.Desk.LogFile = self.origin, c.LogFile
	d, taps, err := StartDesk(c.Desk, board, c.Logger, c.Stderr)
	if err != nil {
		if addrInUse(err) {
			err = fmt.Errorf("--desk %s: the address is taken (another askbridge's desk, from a second editor window?): give another port, or 127.0.0.1:0 for any free one", c.Desk.Addr)
		}
		return &SetupError{Code: 2, Err: err}
	}
	var deskURL string
	if d != nil {
		defer d.Close()
		deskURL = d.URL()
	}
	c.Notify.DeskURL, c.Notify.Taps, c.Notify.Logger = deskURL, taps, c.Logger
	notifier, err := notify.Start(board, c.Notify)
	if err != nil {
		return &SetupError{Code: 2, Err: err}
	}
	defer notifier.Close()
	bridge := adapter.NewBridge(c.bridge(board, dialects, deskURL, reporter, notifier))
	sockEnv, err := bridge.Listen()
	defer bridge.Close()
	env = append(env, sockEnv...)
	if err != nil {
		c.Logger.Warn("askbridge ask will not reach the editor: cannot open its socket", "err", err)
	}
	injectAsk(dialects, c.InjectAsk, sockEnv, command, c.Logger)
	setProgress(dialects, c.MCPProgress)
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
		Contain: container(c.Contain, c.Grace, sockEnv),
		Started: showContainment(updates...),
	})
}

// bridge is c.Bridge with what Run made: the board, the dialects, and the
// ways besides the editor that can answer.
func (c *Config) bridge(board *permission.Board, dialects []dialect.Dialect, deskURL string, reporter *hub.Reporter, notifier *notify.Notifier) adapter.Options {
	o := c.Bridge
	elsewhere := func() bool { return deskURL != "" || reporter.Connected() }
	o.Board, o.Dialects, o.Logger = board, dialects, c.Logger
	o.Routing.Elsewhere = elsewhere
	// A sign-in outside a session can go nowhere else; a notification
	// shows its address too.
	o.Attended = func() bool { return elsewhere() || notifier.Active() }
	// Answers after the agent stopped waiting; nowhere to answer (routes.go).
	o.Routes = answerRoutes(c.Hub, deskURL, reporter)
	return o
}
