package qwen

import "github.com/askbridge/askbridge/adapter/dialect"

// ModeKind implements dialect.ModeJudge for Qwen Code's approval modes:
// "auto" (it decides itself what to ask) and "yolo" (nothing is asked).
func (*Dialect) ModeKind(id string) dialect.ModeKind {
	switch id {
	case "auto":
		return dialect.ModeAutoReview
	case "yolo":
		return dialect.ModeFullAccess
	}
	return dialect.ModeAsks
}
