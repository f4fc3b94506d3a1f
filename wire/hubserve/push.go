package hubserve

import (
	"strings"

	"github.com/askbridge/askbridge/internal/pairing"
	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route/hub"
)

// pushPaired lists the devices paired now, for Web Push: only those get
// pushes.
func pushPaired(devices *pairing.Devices) func() []string {
	return func() []string {
		var ids []string
		for _, d := range devices.List() {
			ids = append(ids, d.ID)
		}
		return ids
	}
}

// pushWhere names where a set comes from on its push's title, as board
// says it (permission.Pending.Origin): its agent, its folder, its
// session's mode.
func pushWhere(board *permission.Board) func(id string) string {
	return func(id string) string {
		p, _ := board.Get(id)
		inst := p.Origin
		if inst == nil {
			return ""
		}
		return strings.Join(nonEmpty(inst.Agent, inst.Folder, modeWords(inst.Mode)), " · ")
	}
}

// modeWords names the session's mode on a push, marked when the agent
// runs tools without asking in it: as the card says it.
func modeWords(m *hub.SessionMode) string {
	if m == nil || m.ID == "" {
		return ""
	}
	name := m.Name
	if name == "" {
		name = m.ID
	}
	if m.Unasked != "" {
		return "⚠ " + name + " mode"
	}
	return name + " mode"
}

func nonEmpty(s ...string) []string {
	var out []string
	for _, v := range s {
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}
