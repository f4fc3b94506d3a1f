// Package claude is the dialect of Claude Code (through claude-agent-acp)
// and of any agent that asks with a plain form elicitation.
package claude
