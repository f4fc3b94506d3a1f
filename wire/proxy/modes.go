package proxy

import (
	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/permission"
)

// showModes puts each session's mode, as its agent reports it, where the
// desk's and the hub's cards read it (permission.Origin.Modes, in the
// board's words: adapter.SessionMode.Board): a card then says the mode
// and, for one that runs tools unasked, says so.
func showModes(updates ...func(func(*permission.Origin))) func(string, adapter.SessionMode) {
	return func(session string, m adapter.SessionMode) {
		mode := m.Board()
		for _, u := range updates {
			u(func(i *permission.Origin) {
				if i.Modes == nil {
					i.Modes = map[string]permission.SessionMode{}
				}
				i.Modes[session] = mode
			})
		}
	}
}
