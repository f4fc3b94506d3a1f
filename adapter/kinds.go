package adapter

import (
	"fmt"
	"strings"

	"github.com/askbridge/askbridge/adapter/dialect"
)

// The --agent-kind values besides the names of the dialects that launch
// their agents (Launcher): recognise the agent from its command, or use
// no launcher at all.
const (
	KindAuto    = "auto"
	KindGeneric = "generic"
)

// AgentKinds are the values --agent-kind takes with the table dialects:
// auto, the name of each dialect that launches its agent, and generic.
// The table is their one definition: a new launcher is a new kind.
func AgentKinds(dialects []dialect.Dialect) []string {
	kinds := []string{KindAuto}
	for _, d := range dialects {
		if _, ok := d.(dialect.Launcher); ok {
			kinds = append(kinds, d.Name())
		}
	}
	return append(kinds, KindGeneric)
}

// CheckAgentKind says what is wrong with kind as an --agent-kind, or nil.
func CheckAgentKind(dialects []dialect.Dialect, kind string) error {
	kinds := AgentKinds(dialects)
	for _, k := range kinds {
		if k == kind {
			return nil
		}
	}
	return fmt.Errorf("--agent-kind %q: want %s or %s", kind, strings.Join(kinds[:len(kinds)-1], ", "), kinds[len(kinds)-1])
}
