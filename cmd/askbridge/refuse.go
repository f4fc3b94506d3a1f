package main

import (
	"fmt"
	"io"
	"os/exec"
	"strings"

	"github.com/askbridge/askbridge/internal/cliflag"
)

// noAgent is what askbridge with no agent command says: what is missing,
// then the short usage.
func noAgent(stderr io.Writer) string {
	reason := "no agent to run: give its command after --, e.g. askbridge -- npx -y @agentclientprotocol/claude-agent-acp"
	fmt.Fprintf(stderr, "askbridge: %s\n\n%s\n\nRun 'askbridge help' for the flags; 'askbridge demo' to see it work.\n", reason, usage)
	return reason
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
