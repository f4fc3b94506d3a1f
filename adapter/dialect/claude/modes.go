package claude

import "github.com/askbridge/askbridge/adapter/dialect"

// ModeKind implements dialect.ModeJudge for claude-agent-acp's permission
// modes: "auto" (Claude handles permission decisions, the default on a
// fresh settings folder) and "bypassPermissions".
func (*Elicitation) ModeKind(id string) dialect.ModeKind {
	switch id {
	case "auto":
		return dialect.ModeAutoReview
	case "bypassPermissions":
		return dialect.ModeFullAccess
	}
	return dialect.ModeAsks
}
