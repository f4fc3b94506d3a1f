package proxy

import (
	"fmt"
	"strings"
	"time"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/dialect/asktool"
	"github.com/askbridge/askbridge/internal/hub"
	"github.com/askbridge/askbridge/internal/mcpask"
)

// setProgress hands --mcp-progress to the MCP ask tool.
func setProgress(dialects []dialect.Dialect, every time.Duration) {
	asktool.SetProgress(dialects, mcpask.NoProgress(every))
}

// answerRoutes says which ways besides the editor can answer a set now:
// the desk, the hub when connected (its page, the terminal inbox, its
// notifiers). A notification's buttons post to the desk, so they need it.
// With none it says what is missing, for the user to fix.
func answerRoutes(hubFlag, deskURL string, reporter *hub.Reporter) func(approval bool) ([]string, string) {
	hubPath := hubFlag
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
		if hubFlag == "off" {
			missing = append(missing, "--hub off")
		} else {
			missing = append(missing, fmt.Sprintf("no hub is connected at %s (is `askbridge hub` running, and is that its socket?)", hubPath))
		}
		return nil, strings.Join(missing, "; ")
	}
}
