package proxy

import (
	"fmt"
	"io"
	"os"

	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/route/prompt"
)

// Refuse is askbridge not starting: the reason in one line on stderr, then
// the same line to the client (TellClient). It returns code, the exit code.
func Refuse(stdin io.Reader, stdout, stderr io.Writer, code int, reason string) int {
	fmt.Fprintln(stderr, "askbridge:", reason)
	return TellClient(stdin, stdout, code, reason)
}

// TellClient answers the client's initialize (and any other request) with a
// JSON-RPC error carrying reason, since an editor often shows nothing of
// stderr and would only see its agent die. A terminal on stdin is a person,
// who has read stderr; nothing is read from it.
func TellClient(stdin io.Reader, stdout io.Writer, code int, reason string) int {
	if !isTerminal(stdin) {
		relay.Refuse(stdin, stdout, relay.Internal("askbridge: "+reason, nil), nil)
	}
	return code
}

func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && prompt.IsTerminal(f)
}

// TerminalHint is one line for a person who ran askbridge -- AGENT in a
// shell: askbridge then waits, silent, for an ACP client's JSON-RPC.
func TerminalHint(stdin io.Reader, stderr io.Writer) {
	if isTerminal(stdin) {
		fmt.Fprintln(stderr, "askbridge: waiting for an ACP client's JSON-RPC on stdin; run it from an editor (docs/clients.md), or try askbridge demo")
	}
}
