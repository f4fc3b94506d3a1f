package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/askbridge/askbridge/internal/askwire"
	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/wire/askuser"
)

func init() { subcommands["ask"] = runAsk }

const askUsage = `Usage: askbridge ask '{"questions":[...]}'`

const askHelp = askUsage + `
       askbridge ask - < questions.json

Asks the user the questions and prints the answers as JSON on stdout:
{"answers":{"<header>":"label"}}; several picks read "A, B", typed text
"Other (custom: text)". A cancel prints {"cancelled":true} and exits 130;
invalid questions exit 1 with one "- path: problem" line per violation.

With ASKBRIDGE_SOCKET set (askbridge sets it for the agent it runs) the
questions go to the editor, in ASKBRIDGE_SESSION or the most recently active
session. Without it they are asked in the terminal: interactively on a TTY,
else as numbered prompts on stderr (1, or 1,3 for several, or 0 then text).

A question: {"question","header","options":[{"label","description"}],
"multiSelect","followUps":{"<label>":[questions asked next]}}. 1-4 questions
(ASK_MAX_QUESTIONS), 2-4 options each (ASK_MAX_OPTIONS), headers up to 12
characters (ASK_HEADER_MAX_LENGTH) and unique in the set, question texts up
to 500 (ASK_QUESTION_MAX_LENGTH).`

// runAsk is `askbridge ask`: for agents that only have a shell. It asks in
// the editor through a running askbridge (ASKBRIDGE_SOCKET), else in the
// terminal, and prints the answers as JSON on stdout.
func runAsk(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if isHelp(args) {
		fmt.Fprintln(stdout, askHelp)
		return 0
	}
	if len(args) == 0 || strings.TrimSpace(args[0]) == "" {
		fmt.Fprintf(stderr, "Error: Missing JSON parameter\n%s\n", askUsage)
		return 1
	}
	raw := []byte(args[0])
	fromStdin := args[0] == "-"
	if fromStdin {
		var err error
		if raw, err = io.ReadAll(stdin); err != nil || len(strings.TrimSpace(string(raw))) == 0 {
			fmt.Fprintf(stderr, "Error: Missing JSON parameter\n%s\n", askUsage)
			return 1
		}
	}
	if !json.Valid(raw) {
		fmt.Fprintf(stderr, "Error: Invalid JSON format\n%s\n", askUsage)
		return 1
	}
	qs, err := permission.DecodeAskInput(raw)
	if err == nil {
		var lim permission.Limits
		if lim, err = permission.LimitsFromEnv(); err != nil {
			fmt.Fprintf(stderr, "Error: %v\n", err)
			return 1
		}
		err = permission.Validate(qs, lim)
	}
	if err != nil {
		askuser.PrintViolations(stderr, err)
		return 1
	}
	ctx, stop := stopContext(context.Background())
	defer stop()

	var out any
	if sock := os.Getenv(askwire.SocketEnv); sock != "" {
		out, err = askuser.InEditor(ctx, sock, raw, os.Getenv("ASKBRIDGE_SESSION"))
	} else {
		out, err = askuser.InTerminal(ctx, qs, stdin, stderr, fromStdin)
	}
	var ve *permission.ValidationError
	switch {
	case errors.As(err, &ve):
		askuser.PrintViolations(stderr, err)
		return 1
	case err != nil:
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	b, _ := json.Marshal(out)
	fmt.Fprintln(stdout, string(b))
	if m, ok := out.(map[string]bool); ok && m["cancelled"] {
		return 130
	}
	return 0
}
