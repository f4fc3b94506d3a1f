package relay

import "strings"

// secretWords mark a variable of askbridge's as a secret: ASKBRIDGE_DESK_TOKEN,
// ASKBRIDGE_NOTIFY_TOKEN, ASKBRIDGE_HUB_TOKEN, ASKBRIDGE_NOTIFY_URL (a public
// ntfy topic's name is its password), and any to come named so. An
// agent holding the desk's token could answer its own questions, so the
// agent never gets them; askbridge's other variables (ASKBRIDGE_SOCKET,
// ASKBRIDGE_SESSION, a test's settings) pass as they are.
var secretWords = []string{"TOKEN", "SECRET", "PASSWORD", "KEY", "NOTIFY_URL"}

// AgentEnv is the environment the agent starts with: askbridge's own
// without askbridge's secrets, then add (which askbridge sets itself).
func AgentEnv(base, add []string) []string {
	out := make([]string, 0, len(base)+len(add))
	for _, kv := range base {
		if !secretVariable(kv) {
			out = append(out, kv)
		}
	}
	return append(out, add...)
}

// secretVariable reports whether kv ("NAME=value") is one of askbridge's
// secrets. Names are compared as Windows does, ignoring case.
func secretVariable(kv string) bool {
	name, _, _ := strings.Cut(kv, "=")
	name = strings.ToUpper(name)
	if !strings.HasPrefix(name, "ASKBRIDGE_") {
		return false
	}
	for _, w := range secretWords {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}
