package conformance

import (
	"bytes"

	"github.com/askbridge/askbridge/adapter/relay"
)

// A fixture records a contained agent's session. Where askbridge cannot
// contain its agent (every system but Linux, and a Linux that forbids it),
// it marks the editor's permission requests as the agent's not contained
// (package adapter/uncontained; the bridge's tests hold the marks); the binary
// replay takes those marks off what the client received before comparing,
// so one fixture holds on every system.
var (
	uncontainedTitle = []byte("⚠ " + relay.UncontainedWarning + " — ")
	uncontainedName  = []byte(` (agent not contained)"`)
)

// unmarked is lines without the marks of an uncontained agent.
func unmarked(lines [][]byte) [][]byte {
	out := make([][]byte, len(lines))
	for i, l := range lines {
		l = bytes.ReplaceAll(l, uncontainedTitle, nil)
		out[i] = bytes.ReplaceAll(l, uncontainedName, []byte(`"`))
	}
	return out
}
