package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/internal/cliflag"
	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route/prompt"
	"github.com/askbridge/askbridge/wire/demo"
	"github.com/askbridge/askbridge/wire/proxy"
)

func init() {
	subcommands["demo"] = runDemo
	subcommands["__demo-agent"] = runDemoAgent
}

const demoUsage = `Usage: askbridge demo [--desk ADDR] [--hub auto|off|SOCKET] [--script FILE]

Runs a built-in agent through the real adapter with a built-in terminal
client: the agent asks a single-select, a multi-select and a question to
answer with "Other", and quotes the answers it received. On a terminal you
answer with arrows, Space and Enter; piped answers use numbers, one line per
question (printf '1\n1,2\n0\nmy-service\n' | askbridge demo).

With --desk (e.g. 127.0.0.1:0) the questions are on the answer desk's page
too, and with a hub running (askbridge hub) on the hub's page and in
askbridge inbox, as any askbridge's are: answer wherever you like; the
first answer wins and the terminal's prompt is withdrawn.

A script is {"prompt","intro","rounds":[{"questions":[...]}],"outro"}.`

// runDemo is `askbridge demo`: the built-in agent, through the real
// adapter, with a built-in terminal client.
func runDemo(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("askbridge demo", flag.ContinueOnError)
	scriptPath := fs.String("script", "", "a question script (JSON) to play instead of the built-in one")
	opts := &proxyOptions{deskCustom: true}
	fs.StringVar(&opts.desk, "desk", "", "also serve the answer desk on this address, e.g. 127.0.0.1:0")
	fs.StringVar(&opts.hub, "hub", "auto", "report the questions to askbridge hub: auto (its usual socket, whenever a hub is there), off, or the socket's path")
	if code, done := cliflag.Parse(fs, demoUsage, args, stdout, stderr); done {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "askbridge demo: unexpected argument %q\n%s\n", fs.Arg(0), demoUsage)
		return 2
	}
	script, err := demo.LoadScript(*scriptPath)
	if err != nil {
		fmt.Fprintln(stderr, "askbridge demo:", err)
		return 1
	}
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(stderr, "askbridge demo:", err)
		return 1
	}
	limits, err := permission.LimitsFromEnv()
	if err != nil {
		fmt.Fprintln(stderr, "askbridge demo:", err)
		return 1
	}
	ctx, stop := stopContext(context.Background())
	defer stop()
	logger := demo.Logger(stderr, relay.UncontainedWarning) // its agent is askbridge's own (demo.Logger)
	slog.SetDefault(logger)
	command := []string{exe, "__demo-agent"}
	if *scriptPath != "" {
		command = append(command, "--script", *scriptPath)
	}
	var p prompt.Prompter = prompt.NewPlain(stdin, stdout)
	if f, ok := stdin.(*os.File); ok && prompt.IsTerminal(f) {
		p = prompt.NewTTY(f)
	}
	err = proxy.RunDemo(ctx, proxy.Demo{Command: command, Routes: opts.routes(logger), Prompt: script.Prompt,
		Client: &demo.Client{Prompter: p, Out: stdout}, Limits: limits, Logger: logger, Stderr: stderr})
	var setup *proxy.SetupError
	switch {
	case errors.As(err, &setup):
		fmt.Fprintln(stderr, "askbridge demo:", err)
		return setup.Code
	case err != nil:
		fmt.Fprintln(stderr, "askbridge demo:", err)
		return 1
	}
	return 0
}

// runDemoAgent is the demo's agent, run by askbridge as its child.
func runDemoAgent(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("askbridge __demo-agent", flag.ContinueOnError)
	fs.SetOutput(stderr)
	scriptPath := fs.String("script", "", "question script")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	script, err := demo.LoadScript(*scriptPath)
	if err != nil {
		fmt.Fprintln(stderr, "demo agent:", err)
		return 1
	}
	slog.SetDefault(demo.Logger(stderr))
	demo.RunAgent(context.Background(), script, stdin, stdout)
	return 0
}
