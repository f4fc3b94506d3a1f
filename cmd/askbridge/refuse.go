package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/internal/cliflag"
	"github.com/askbridge/askbridge/internal/prompt"
)

// refuse is askbridge not starting: the reason in one line on stderr, then
// the same line to the client (tellClient). It returns code, the exit code.
func refuse(stdin io.Reader, stdout, stderr io.Writer, code int, reason string) int {
	fmt.Fprintln(stderr, "askbridge:", reason)
	return tellClient(stdin, stdout, code, reason)
}

// tellClient answers the client's initialize (and any other request) with a
// JSON-RPC error carrying reason, since an editor often shows nothing of
// stderr and would only see its agent die. A terminal on stdin is a person,
// who has read stderr; nothing is read from it.
func tellClient(stdin io.Reader, stdout io.Writer, code int, reason string) int {
	if !isTerminal(stdin) {
		relay.Refuse(stdin, stdout, relay.Internal("askbridge: "+reason, nil), nil)
	}
	return code
}

func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && prompt.IsTerminal(f)
}

// noAgent is what askbridge with no agent command says: what is missing,
// then the short usage.
func noAgent(stderr io.Writer) string {
	reason := "no agent to run: give its command after --, e.g. askbridge -- npx -y @agentclientprotocol/claude-agent-acp"
	fmt.Fprintf(stderr, "askbridge: %s\n\n%s\n\nRun 'askbridge help' for the flags; 'askbridge demo' to see it work.\n", reason, usage)
	return reason
}

// terminalHint is one line for a person who ran askbridge -- AGENT in a
// shell: askbridge then waits, silent, for an ACP client's JSON-RPC.
func terminalHint(stdin io.Reader, stderr io.Writer) {
	if isTerminal(stdin) {
		fmt.Fprintln(stderr, "askbridge: waiting for an ACP client's JSON-RPC on stdin; run it from an editor (docs/clients.md), or try askbridge demo")
	}
}

// mistypedCommand reports a first word that reads like a misspelt
// subcommand (askbridge demos) rather than an agent: given without --, not
// a program on PATH, and close to a subcommand's name.
func mistypedCommand(args, command []string) string {
	word := command[0]
	if len(args) > len(command) && args[len(args)-len(command)-1] == "--" || strings.ContainsAny(word, `/\.`) {
		return ""
	}
	if _, err := exec.LookPath(word); err == nil {
		return ""
	}
	best := cliflag.Closest(strings.ToLower(word), visibleSubcommands())
	if best == "" {
		return ""
	}
	return fmt.Sprintf("unknown command %s; did you mean %s?", word, best)
}
