package askuser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/askbridge/askbridge/adapter/dialect/asktool"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/internal/askwire"
	"github.com/askbridge/askbridge/internal/sockdir"
	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route/prompt"
)

// InEditor asks the questions of raw ({"questions":[...]}) through the
// running askbridge on the ask socket at path, in the editor, in session
// (or the most recently active one). It returns the answers as askbridge
// ask prints them, or {"cancelled":true}; a *permission.ValidationError
// names what askbridge refused.
func InEditor(ctx context.Context, path string, raw []byte, session string) (any, error) {
	c, err := sockdir.Dial(ctx, path) // its folder checked: this user's alone
	if err != nil {
		return nil, fmt.Errorf("cannot reach askbridge at %s=%s: %v", askwire.SocketEnv, path, err)
	}
	conn := jsonrpc2.NewConn(ctx, relay.NewLineStream(c, c, c, nil), jsonrpc2.HandlerWithError(func(context.Context, *jsonrpc2.Conn, *jsonrpc2.Request) (any, error) {
		return nil, &jsonrpc2.Error{Code: relay.CodeMethodNotFound, Message: "askbridge ask takes no requests"}
	}))
	defer conn.Close()
	var in struct {
		Questions json.RawMessage `json:"questions"`
	}
	json.Unmarshal(raw, &in)
	params := askwire.Params{Questions: in.Questions, Format: "cli", SessionID: session}
	var result json.RawMessage
	if err := conn.Call(ctx, askwire.Method, params, &result); err != nil {
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

// InTerminal asks qs on the TTY when there is one, else with numbered
// prompts on stderr reading stdin (stdinTaken: the questions came on
// stdin, so a TTY is looked for at /dev/tty).
func InTerminal(ctx context.Context, qs []permission.Question, stdin io.Reader, stderr io.Writer, stdinTaken bool) (any, error) {
	p := terminalPrompter(stdin, stderr, stdinTaken)
	res, err := permission.Ask(ctx, prompt.Peer{Prompter: p}, permission.Request{SessionID: "terminal", ToolCallID: "terminal", Questions: qs, Round: 1})
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

// PrintViolations writes why questions were refused (err), one "- path:
// problem" line per violation, as askbridge ask prints them.
func PrintViolations(w io.Writer, err error) {
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
