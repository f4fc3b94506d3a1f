package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/adapter/dialect/asktool"
	"github.com/askbridge/askbridge/internal/hub"
	"github.com/askbridge/askbridge/internal/mcpask"
)

// lateFlags are the flags of answers given after the agent stopped waiting.
func (o *proxyOptions) lateFlags(fs *flag.FlagSet) {
	fs.DurationVar(&o.mcpProgress, "mcp-progress", mcpask.ProgressFor, "while nobody has answered a question of askbridge's MCP ask tool, tell the agent's MCP host every 15 s that it is still waiting (MCP progress, when the host sent a progressToken; Copilot CLI then waits on), for at most this long (0: never)")
	fs.Var(&o.lateAnswers, "late-answers", "an answer given after the agent's MCP host stopped waiting for askbridge's ask tool (Copilot CLI after about 3 minutes, Gemini CLI after 10): next-prompt (added to the user's next prompt in that session) or prompt (sent to the agent at once as a prompt of its own, once no turn runs in the session)")
}

// checkLate reports a --mcp-progress that makes no sense.
func (o *proxyOptions) checkLate() error {
	if o.mcpProgress < 0 {
		return fmt.Errorf("--mcp-progress %s: must not be negative (0 sends none)", o.mcpProgress)
	}
	return nil
}

// setProgress hands --mcp-progress to the MCP ask tool.
func setProgress(dialects []adapter.Dialect, o *proxyOptions) {
	asktool.SetProgress(dialects, mcpask.NoProgress(o.mcpProgress))
}

// answerRoutes says which ways besides the editor can answer a set now:
// the desk, the hub when connected (its page, the terminal inbox, its
// notifiers). A notification's buttons post to the desk, so they need it.
// With none it says what is missing, for the user to fix.
func answerRoutes(o *proxyOptions, deskURL string, reporter *hub.Reporter) func(approval bool) ([]string, string) {
	hubPath := o.hub
	if hubPath == "auto" || hubPath == "" {
		hubPath = hub.SocketPath()
	}
	return func(bool) ([]string, string) {
		var routes []string
		if deskURL != "" {
			routes = append(routes, "the desk at "+deskURL)
		}
		if reporter.Connected() {
			routes = append(routes, "the hub at "+hubPath)
		}
		if len(routes) > 0 {
			return routes, ""
		}
		missing := []string{"no --desk"}
		if o.hub == "off" {
			missing = append(missing, "--hub off")
		} else {
			missing = append(missing, fmt.Sprintf("no hub is connected at %s (is `askbridge hub` running, and is that its socket?)", hubPath))
		}
		return nil, strings.Join(missing, "; ")
	}
}
