package proxy

import (
	"sync"

	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route/hub"
)

// selfOrigin is what an askbridge's own desk says of where its sets come
// from, as the hub says it of every askbridge: the agent and the editor
// (from initialize) and each session's folder, so the desk's page names
// its agent and folder instead of a session id.
type selfOrigin struct {
	board *permission.Board
	mu    sync.Mutex
	inst  permission.Origin
}

func newSelfOrigin(board *permission.Board, command []string) *selfOrigin {
	inst := hub.Self(command)
	inst.Sessions = map[string]string{}
	return &selfOrigin{board: board, inst: inst}
}

// origin is desk.Options.Origin: what the hub's would say of the set.
func (o *selfOrigin) origin(id string) (*permission.Origin, string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if p, ok := o.board.Get(id); ok {
		return o.inst.Of(p.SessionID, p.Context)
	}
	return o.inst.Of("", nil)
}

func (o *selfOrigin) update(fn func(*permission.Origin)) {
	o.mu.Lock()
	defer o.mu.Unlock()
	fn(&o.inst)
}
