package hub

import "github.com/askbridge/askbridge/permission"

// Where the hub's sets come from is its board's to say: each askbridge is
// one source of the board (permission.Request.From, its connection's id),
// described as it says of itself and as the hub knows it, again whenever
// it says more (a session's folder, its mode), so a card shows the mode as
// it is now. Once the askbridge leaves, its sets keep the origin they had:
// the history says where an ended set came from.

// describe tells the board what p is now.
func (h *Hub) describe(p *peer) {
	h.mu.Lock()
	inst := onBoard(p.inst)
	h.mu.Unlock()
	h.board.DescribeFrom(inst.ID, func(o *permission.Origin) { *o = inst })
}

// onBoard is inst as the hub's board holds it: its sessions' tables keyed
// by the board's session ids (the askbridge's id, "/", its own), which
// its sets are asked in.
func onBoard(inst Instance) Instance {
	prefix := inst.ID + "/"
	inst.Sessions = rekey(inst.Sessions, prefix)
	inst.Subagents = rekey(inst.Subagents, prefix)
	inst.Modes = rekey(inst.Modes, prefix)
	return inst
}

func rekey[V any](m map[string]V, prefix string) map[string]V {
	if m == nil {
		return nil
	}
	out := make(map[string]V, len(m))
	for k, v := range m {
		out[prefix+k] = v
	}
	return out
}
