//go:build unix

package harness

import (
	"os"
	"strings"

	"github.com/askbridge/askbridge/internal/hubkey"
)

// hostEnv is this process's environment without anything that would point
// an agent at a real model or a real config. The one ASKBRIDGE_ variable
// kept is the hub key a test that starts its own hub sets (t.Setenv) for
// the askbridges it runs to trust: their scratch HOMEs hold no
// hub-key.pub.
func hostEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if name == hubkey.Env {
			out = append(out, kv)
			continue
		}
		if strings.HasPrefix(name, "ANTHROPIC_") || strings.HasPrefix(name, "OPENAI_") || strings.HasPrefix(name, "CLAUDE") ||
			strings.HasPrefix(name, "QWEN") || strings.HasPrefix(name, "OPENCODE") || strings.HasPrefix(name, "ASKBRIDGE_") ||
			strings.HasPrefix(name, "XDG_") ||
			strings.HasPrefix(name, "GEMINI_") || strings.HasPrefix(name, "GOOGLE_") {
			continue
		}
		out = append(out, kv)
	}
	return out
}

func pathEnv() string {
	for _, kv := range os.Environ() {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			return v
		}
	}
	return "/usr/local/bin:/usr/bin:/bin"
}
