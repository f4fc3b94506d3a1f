package main

import (
	"flag"
	"fmt"

	"github.com/askbridge/askbridge/adapter/mcpask"
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
