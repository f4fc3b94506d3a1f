// Package claudetest is Claude Code's question lines as claude-agent-acp
// sends them, for the tests of the Claude dialect and of the bridge: one
// definition for both.
package claudetest
