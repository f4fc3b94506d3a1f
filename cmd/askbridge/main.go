// Command askbridge makes an AI coding agent's "ask the user a question" tool
// work in every ACP client. Run it as the agent: askbridge -- AGENT [ARGS...].
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/askbridge/askbridge/internal/cliflag"
	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/wire/proxy"
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
	fail := func(code int, err error) int { return proxy.Refuse(stdin, stdout, stderr, code, err.Error()) }
	help, err := cliflag.ParseArgs(fs, args)
	switch {
	case help:
		printUsage(stdout, fs)
		return 0
	case err != nil:
		fmt.Fprintf(stderr, "askbridge: %v\nRun 'askbridge -h' for usage.\n", err)
		return proxy.TellClient(stdin, stdout, 2, err.Error())
	}
	if opts.version {
		fmt.Fprintln(stdout, version())
		return 0
	}
	command := fs.Args()
	if len(command) == 0 {
		return proxy.TellClient(stdin, stdout, 2, noAgent(stderr))
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
	proxy.TerminalHint(stdin, stderr)

	ignoreBrokenPipe()
	ctx, stop := stopContext(context.Background())
	defer stop()
	cfg := opts.config(command, limits, logger)
	cfg.Record, cfg.Stdin, cfg.Stdout, cfg.Stderr = record, stdin, stdout, stderr
	err = proxy.Run(ctx, cfg)
	var setup *proxy.SetupError
	if errors.As(err, &setup) {
		return fail(setup.Code, setup.Err)
	}
	return proxy.ExitCode(err, opts.logFile != "", logger, stderr)
}
