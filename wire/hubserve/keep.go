package hubserve

import (
	"log/slog"

	"github.com/askbridge/askbridge/internal/decisions"
	"github.com/askbridge/askbridge/route/hub"
)

// keepHistory gives the hub its history file; without one (an unreadable
// file, no folder for it) the hub runs with a history of this run only.
func keepHistory(h *hub.Hub, logger *slog.Logger) {
	path, err := hub.HistoryPath()
	if err == nil {
		var store *hub.Store
		if store, err = hub.OpenStore(path, logger); err == nil {
			h.Keep(store)
			return
		}
	}
	logger.Warn("hub: the history will not outlive this run", "err", err)
}

// keepDecisions gives the hub its decisions log; without one (no folder
// for it) the hub runs without, and says so.
func keepDecisions(h *hub.Hub, logger *slog.Logger) {
	path, err := hub.DecisionsPath()
	if err == nil {
		var l *decisions.Log
		if l, err = decisions.Open(path, 0); err == nil {
			h.Record(l)
			return
		}
	}
	logger.Warn("hub: no decisions log this run", "err", err)
}
