// Command askbridge makes an AI coding agent's "ask the user a question" tool
// work in every ACP client. Run it as the agent: askbridge -- AGENT [ARGS...].
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/internal/desk"
	"github.com/askbridge/askbridge/permission"
)

func main() {
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
	if code, done := parseFlags(fs, usage, args, stdout, stderr); done {
		return code
	}
	if opts.version {
		fmt.Fprintln(stdout, version())
		return 0
	}
	command := fs.Args()
	if len(command) == 0 {
		printUsage(stderr, fs)
		return 2
	}
	if err := opts.check(); err != nil {
		fmt.Fprintln(stderr, "askbridge:", err)
		return 2
	}
	limits, err := permission.LimitsFromEnv()
	if err != nil {
		fmt.Fprintln(stderr, "askbridge:", err)
		return 2
	}
	logger, closeLog, err := opts.logger(stderr)
	if err != nil {
		fmt.Fprintln(stderr, "askbridge:", err)
		return 2
	}
	defer closeLog()
	record, closeRecord, err := opts.recordFile()
	if err != nil {
		fmt.Fprintln(stderr, "askbridge:", err)
		return 2
	}
	defer closeRecord()

	// A client that goes away must not kill askbridge with SIGPIPE before it
	// has stopped the agent; writes return EPIPE instead.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	defer stop()

	var openCode *adapter.OpenCodeServer
	var env []string
	if opts.agentKind == "opencode" || opts.agentKind == "auto" && adapter.IsOpenCode(command) {
		// OpenCode's questions are answered on its own HTTP server: start it
		// on a port and with a password only askbridge knows.
		var ocEnv []string
		command, ocEnv, openCode, err = adapter.PrepareOpenCode(command)
		if err != nil {
			fmt.Fprintln(stderr, "askbridge:", err)
			return 1
		}
		env = append(env, ocEnv...)
		logger.Info("OpenCode: answering its question tool through its server", "url", openCode.BaseURL)
	}
	board := permission.NewBoard()
	if opts.desk != "" {
		d, err := desk.Listen(opts.desk, board, desk.Options{Token: os.Getenv("ASKBRIDGE_DESK_TOKEN"), AllowRemote: opts.deskAllowRemote, NoCustom: !opts.deskCustom, Logger: logger})
		if err != nil {
			fmt.Fprintln(stderr, "askbridge:", err)
			return 2
		}
		defer d.Close()
		fmt.Fprintf(stderr, "askbridge: desk at %s\n", d.URL())
	}
	bridge := adapter.NewBridge(adapter.Options{
		Board:           board,
		Advertise:       opts.advertise,
		Render:          opts.render,
		QuestionTimeout: opts.questionTimeout,
		OnTimeout:       opts.onTimeout,
		MaxRounds:       opts.maxRounds,
		Limits:          limits,
		OpenCode:        openCode,
		Logger:          logger,
	})
	sockEnv, err := bridge.Listen()
	defer bridge.Close()
	env = append(env, sockEnv...)
	if err != nil {
		logger.Warn("askbridge ask will not reach the editor: cannot open its socket", "err", err)
	}
	err = adapter.Run(ctx, adapter.Config{
		Command: command,
		Env:     env,
		Stdin:   stdin,
		Stdout:  stdout,
		Stderr:  stderr,
		Record:  record,
		Logger:  logger,
		Grace:   opts.grace,
		Setup:   bridge.Setup,
	})
	var exit *adapter.AgentExitError
	var notStarted *adapter.StartError
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
