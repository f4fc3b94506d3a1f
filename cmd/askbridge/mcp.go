package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"

	"github.com/askbridge/askbridge/adapter/mcpask"
)

func init() { subcommands["mcp"] = runMCP }

var mcpUsage = fmt.Sprintf(`Usage: askbridge mcp

A stdio MCP server with one tool, ask_user_question, that asks the user
through the askbridge that started the agent. askbridge adds it to the
sessions of agents with no question tool of their own; it is not meant to
be run by hand. It exits when its stdin closes. A line that is not one
JSON-RPC message (not JSON, a batch, nested deeper than %d levels, longer
than %d MiB) is answered with a JSON-RPC error, and the server goes on.

Environment:
  ASKBRIDGE_SOCKET   the running askbridge's ask socket (set by askbridge)
  ASKBRIDGE_MCP_TAG  the session the server asks in (set by askbridge)
  ASKBRIDGE_MCP_PROGRESS  how long to send progress while nobody answers
                     (askbridge --mcp-progress; 0: none)
  ASK_MAX_QUESTIONS, ASK_MAX_OPTIONS, ASK_HEADER_MAX_LENGTH,
  ASK_QUESTION_MAX_LENGTH  limits of a question set, as for askbridge ask`, mcpask.MaxDepth, mcpask.MaxLine>>20)

// runMCP is `askbridge mcp`: the MCP ask server on stdin and stdout.
func runMCP(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("askbridge mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintln(stderr, mcpUsage) }
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "askbridge mcp: unexpected argument %q\n%s\n", fs.Arg(0), mcpUsage)
		return 2
	}
	opts, err := mcpask.OptionsFromEnv()
	if err != nil {
		fmt.Fprintln(stderr, "askbridge mcp:", err)
		return 2
	}
	// The SDK's own logs only when something goes wrong: the agent may show
	// this stderr to the user.
	opts.Logger = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	ctx, stop := stopContext(context.Background())
	defer stop()
	// Not the SDK's IOTransport: one malformed line would end the server,
	// and the agent would lose its ask tool for the session.
	t := &mcpask.Stdio{In: stdin, Out: stdout, Logger: opts.Logger}
	if err := mcpask.Run(ctx, opts, t); err != nil {
		fmt.Fprintln(stderr, "askbridge mcp:", err)
		return 1
	}
	return 0
}
