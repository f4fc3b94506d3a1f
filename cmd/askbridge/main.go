// Command askbridge makes an AI coding agent's "ask the user a question" tool
// work in every ACP client. Run it as the agent: askbridge -- AGENT [ARGS...].
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/internal/hub"
	"github.com/askbridge/askbridge/internal/notify"
	"github.com/askbridge/askbridge/permission"
)

func main() {
	hideFromAgent()
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		if sub, ok := subcommands[args[0]]; ok {
			return sub(args[1:], stdin, stdout, stderr)
		}
	}
	return runProxy(args, stdin, stdout, stderr)
}

// subcommands other than the proxy itself, by name.
var subcommands = map[string]func(args []string, stdin io.Reader, stdout, stderr io.Writer) int{}

func runProxy(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs, opts := proxyFlags()
	// Until the agent runs, an error is also the client's answer (refuse).
	fail := func(code int, err error) int { return refuse(stdin, stdout, stderr, code, err.Error()) }
	help, err := parseArgs(fs, args)
	switch {
	case help:
		printUsage(stdout, fs)
		return 0
	case err != nil:
		fmt.Fprintf(stderr, "askbridge: %v\nRun 'askbridge -h' for usage.\n", err)
		return tellClient(stdin, stdout, 2, err.Error())
	}
	if opts.version {
		fmt.Fprintln(stdout, version())
		return 0
	}
	command := fs.Args()
	if len(command) == 0 {
		return tellClient(stdin, stdout, 2, noAgent(stderr))
	}
	if s := mistypedCommand(args, command); s != "" {
		return fail(2, errors.New(s))
	}
	if err := opts.check(); err != nil {
		return fail(2, err)
	}
	limits, err := permission.LimitsFromEnv()
	if err != nil {
		return fail(2, err)
	}
	logger, closeLog, err := opts.logger(stderr)
	if err != nil {
		return fail(2, err)
	}
	defer closeLog()
	record, closeRecord, err := opts.recordFile()
	if err != nil {
		return fail(2, err)
	}
	defer closeRecord()
	terminalHint(stdin, stderr)

	ignoreBrokenPipe()
	ctx, stop := stopContext(context.Background())
	defer stop()

	// A dialect may need its agent started its own way (OpenCode's question
	// server on a port and with a password only askbridge knows).
	dialects := adapter.Dialects()
	command, env, err := adapter.Launch(dialects, command, opts.agentKind)
	if err != nil {
		return fail(1, err)
	}
	board := permission.NewBoard()
	board.SetLogger(logger)
	reporter := reportToHub(ctx, opts, board, command, logger)
	self := newSelfOrigin(board, command)
	updates := []func(func(*hub.Instance)){self.update} // the desk's origin, and the hub's
	if reporter != nil {
		updates = append(updates, reporter.Update)
	}
	opts.deskOrigin = self.origin
	var deskURL string
	if d, err := startDesk(opts, board, logger, stderr); err != nil {
		if addrInUse(err) {
			err = fmt.Errorf("--desk %s: the address is taken (another askbridge's desk, from a second editor window?): give another port, or 127.0.0.1:0 for any free one", opts.desk)
		}
		return fail(2, err)
	} else if d != nil {
		defer d.Close()
		deskURL = d.URL()
	}
	notifier, err := notify.Start(board, opts.notifyOptions(deskURL, logger))
	if err != nil {
		return fail(2, err)
	}
	defer notifier.Close()
	var render adapter.Render
	var onTimeout adapter.OnTimeout
	render.Set(opts.render) // checked with the other flags
	onTimeout.Set(opts.onTimeout)
	elsewhere := func() bool { return deskURL != "" || reporter.Connected() }
	bridge := adapter.NewBridge(adapter.Options{
		Board:     board,
		Advertise: opts.advertise,
		Render:    render,
		Routing: adapter.Routing{Questions: opts.questions, MinAnswerTime: opts.minAnswerTime,
			Elsewhere: elsewhere},
		QuestionTimeout: opts.questionTimeout,
		OnTimeout:       onTimeout,
		Approvals:       opts.approvals,
		ApprovalTimeout: opts.approvalTimeout,
		MaxRounds:       opts.maxRounds,
		Limits:          limits,
		// A sign-in outside a session can go nowhere else; a notification
		// shows its address too.
		Attended: func() bool { return elsewhere() || notifier.Active() },
		Dialects: dialects,
		Logger:   logger,

		// Answers after the agent stopped waiting; nowhere to answer (routes.go).
		LateAnswers: opts.lateAnswers,
		Routes:      answerRoutes(opts, deskURL, reporter),
	})
	sockEnv, err := bridge.Listen()
	defer bridge.Close()
	env = append(env, sockEnv...)
	if err != nil {
		logger.Warn("askbridge ask will not reach the editor: cannot open its socket", "err", err)
	}
	injectAsk(dialects, opts.injectAsk, sockEnv, command, logger)
	setProgress(dialects, opts)
	err = relay.Run(ctx, relay.RunConfig{
		Command: command,
		Env:     env,
		Stdin:   stdin,
		Stdout:  stdout,
		Stderr:  stderr,
		Record:  record,
		Logger:  logger,
		Grace:   opts.grace,
		MaxLine: opts.maxLine,
		Setup:   origin(bridge.Setup, updates...), // the desk's answers go into --record's recording too
		Contain: opts.container(sockEnv),
		Started: showContainment(updates...),
	})
	var exit *relay.AgentExitError
	var notStarted *relay.StartError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		logger.Error("askbridge: " + exit.Error())
		return exit.ExitCode()
	case errors.Is(err, context.Canceled):
		return 130
	case errors.As(err, &notStarted):
		// Run has said so on stderr, as a sentence; a log file gets it too.
		if opts.logFile != "" {
			logger.Error("askbridge: " + err.Error())
		}
		return 1
	default:
		fmt.Fprintln(stderr, "askbridge:", err)
		return 1
	}
}
