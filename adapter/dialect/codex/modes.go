package codex

import "github.com/askbridge/askbridge/adapter/dialect"

// ModeKind implements dialect.ModeJudge for codex-acp's modes: "agent"
// (Auto review: only actions it detects as unsafe are asked about) and
// "agent-full-access" (approval policy never).
func (*Dialect) ModeKind(id string) dialect.ModeKind {
	switch id {
	case "agent":
		return dialect.ModeAutoReview
	case "agent-full-access":
		return dialect.ModeFullAccess
	}
	return dialect.ModeAsks
}
