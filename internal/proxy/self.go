package proxy

import (
	"sync"

	"github.com/askbridge/askbridge/internal/hub"
	"github.com/askbridge/askbridge/permission"
)

// selfOrigin is what an askbridge's own desk says of where its sets come
// from, as the hub says it of every askbridge: the agent and the editor
// (from initialize) and each session's folder, so the desk's page names
// its agent and folder instead of a session id.
type selfOrigin struct {
	board *permission.Board
	mu    sync.Mutex
	inst  hub.Instance
}

func newSelfOrigin(board *permission.Board, command []string) *selfOrigin {
	inst := hub.Self(command)
	inst.Sessions = map[string]string{}
	return &selfOrigin{board: board, inst: inst}
}

// origin is desk.Options.Origin.
func (o *selfOrigin) origin(id string) (any, string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	inst := o.inst
	inst.Sessions = nil
	cwd := inst.CWD
	inst.Subagents = nil
	if p, ok := o.board.Get(id); ok && o.inst.Sessions[p.SessionID] != "" {
		cwd = o.inst.Sessions[p.SessionID]
	}
	inst.Modes = nil
	if p, ok := o.board.Get(id); ok {
		inst.Subagent = o.inst.Subagents[p.SessionID]
		if mode, ok := o.inst.Modes[p.SessionID]; ok {
			inst.Mode = &mode
		}
		inst.Context = p.Context // the set's own: what preceded it
	}
	return inst, cwd
}

func (o *selfOrigin) update(fn func(*hub.Instance)) {
	o.mu.Lock()
	defer o.mu.Unlock()
	fn(&o.inst)
}
