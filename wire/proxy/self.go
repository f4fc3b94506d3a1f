package proxy

import (
	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route/hub"
)

// describeSelf tells board where its sets come from, as the hub says it
// of every askbridge: the agent (the editor and each session's folder
// follow, from initialize and session/new: Origin, and its modes:
// showModes), so the desk's page names its agent and folder instead of a
// session id. The board hands each set out with it (Pending.Origin).
func describeSelf(board *permission.Board, command []string) {
	board.Describe(func(o *permission.Origin) {
		*o = hub.Self(command)
		o.Sessions = map[string]string{}
	})
}
