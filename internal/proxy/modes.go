package proxy

import (
	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/internal/hub"
)

// showModes puts each session's mode, as its agent reports it, where the
// desk's and the hub's cards read it (hub.Instance.Modes): a card then
// says the mode and, for one that runs tools unasked, says so.
func showModes(updates ...func(func(*hub.Instance))) func(string, adapter.SessionMode) {
	return func(session string, m adapter.SessionMode) {
		mode := hub.SessionMode{ID: m.ID, Name: m.Name, Description: m.Description, Unasked: m.Warning(), Asks: adapter.ModeAsks(m.Kind)}
		for _, a := range m.Available {
			mode.Available = append(mode.Available, hub.ModeOption{ID: a.ID, Name: a.Name, Description: a.Description, Asks: adapter.ModeAsks(a.Kind)})
		}
		for _, u := range updates {
			u(func(i *hub.Instance) {
				if i.Modes == nil {
					i.Modes = map[string]hub.SessionMode{}
				}
				i.Modes[session] = mode
			})
		}
	}
}
