package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/adapter/dialect/asktool"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/internal/prompt"
	"github.com/askbridge/askbridge/internal/sockdir"
	"github.com/askbridge/askbridge/permission"
	"github.com/sourcegraph/jsonrpc2"
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
		printViolations(stderr, err)
		return 1
	}
	ctx, stop := stopContext(context.Background())
	defer stop()

	var out any
	if sock := os.Getenv(adapter.SocketEnv); sock != "" {
		out, err = askThroughSocket(ctx, sock, raw, os.Getenv("ASKBRIDGE_SESSION"))
	} else {
		out, err = askInTerminal(ctx, qs, stdin, stderr, fromStdin)
	}
	var ve *permission.ValidationError
	switch {
	case errors.As(err, &ve):
		printViolations(stderr, err)
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

func printViolations(w io.Writer, err error) {
	fmt.Fprintln(w, "Error: Validation failed")
	var ve *permission.ValidationError
	if errors.As(err, &ve) {
		for _, v := range ve.Violations {
			fmt.Fprintf(w, "- %s\n", v)
		}
		return
	}
	fmt.Fprintf(w, "- %v\n", err)
}

// askThroughSocket asks through the running askbridge, in the editor.
func askThroughSocket(ctx context.Context, path string, raw []byte, session string) (any, error) {
	c, err := sockdir.Dial(ctx, path) // its folder checked: this user's alone
	if err != nil {
		return nil, fmt.Errorf("cannot reach askbridge at %s=%s: %v", adapter.SocketEnv, path, err)
	}
	conn := jsonrpc2.NewConn(ctx, relay.NewLineStream(c, c, c, nil), jsonrpc2.HandlerWithError(func(context.Context, *jsonrpc2.Conn, *jsonrpc2.Request) (any, error) {
		return nil, &jsonrpc2.Error{Code: relay.CodeMethodNotFound, Message: "askbridge ask takes no requests"}
	}))
	defer conn.Close()
	var in struct {
		Questions json.RawMessage `json:"questions"`
	}
	json.Unmarshal(raw, &in)
	params := asktool.AskParams{Questions: in.Questions, Format: "cli", SessionID: session}
	var result json.RawMessage
	if err := conn.Call(ctx, adapter.AskMethod, params, &result); err != nil {
		var rpcErr *jsonrpc2.Error
		if errors.As(err, &rpcErr) && rpcErr.Code == relay.CodeInvalidParams && rpcErr.Data != nil {
			var data struct{ Violations []string }
			json.Unmarshal(*rpcErr.Data, &data)
			ve := &permission.ValidationError{}
			for _, v := range data.Violations {
				path, msg, _ := strings.Cut(v, ": ")
				ve.Violations = append(ve.Violations, permission.Violation{Path: path, Message: msg})
			}
			return nil, ve
		}
		if ctx.Err() != nil || errors.Is(err, jsonrpc2.ErrClosed) {
			// Interrupted, or askbridge shut down with the question open:
			// nobody answered, which the caller reads as a cancel.
			return map[string]bool{"cancelled": true}, nil
		}
		return nil, err
	}
	var cancelled struct{ Cancelled bool }
	if json.Unmarshal(result, &cancelled) == nil && cancelled.Cancelled {
		return map[string]bool{"cancelled": true}, nil
	}
	return result, nil
}

// askInTerminal asks on the TTY when there is one, else with numbered
// prompts on stderr reading stdin.
func askInTerminal(ctx context.Context, qs []permission.Question, stdin io.Reader, stderr io.Writer, stdinTaken bool) (any, error) {
	p := terminalPrompter(stdin, stderr, stdinTaken)
	res, err := permission.Ask(ctx, localPeer{p}, permission.Request{SessionID: "terminal", ToolCallID: "terminal", Questions: qs, Round: 1})
	if err != nil {
		return nil, err
	}
	if res.Cancelled {
		return map[string]bool{"cancelled": true}, nil
	}
	return struct {
		Answers map[string]string `json:"answers"`
	}{asktool.CLIAnswers(res)}, nil
}

// terminalPrompter picks the interactive prompter when stdin (or, when the
// JSON came on stdin, /dev/tty) is a terminal.
func terminalPrompter(stdin io.Reader, stderr io.Writer, stdinTaken bool) prompt.Prompter {
	if f, ok := stdin.(*os.File); ok && !stdinTaken && prompt.IsTerminal(f) {
		return prompt.NewTTY(f)
	}
	if stdinTaken {
		if tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0); err == nil && prompt.IsTerminal(tty) {
			return prompt.NewTTY(tty)
		}
	}
	return prompt.NewPlain(stdin, stderr)
}

// localPeer answers the asking flow's permission requests in the terminal.
type localPeer struct{ p prompt.Prompter }

func (l localPeer) RequestPermission(ctx context.Context, params []byte) ([]byte, error) {
	return prompt.Answer(ctx, l.p, params)
}

func (l localPeer) Notify(context.Context, string, any) error { return nil }
