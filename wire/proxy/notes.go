package proxy

import (
	"log/slog"

	"github.com/askbridge/askbridge/internal/notes"
	"github.com/askbridge/askbridge/route/hub"
)

// OpenNotes is the store of what a session's next prompt gets, in
// askbridge's state folder beside the hub's history (a folder the contained
// agent sees empty), made before the agent starts; nil, logged, when there
// is none: the notes then live as long as this process.
func OpenNotes(logger *slog.Logger) *notes.Store {
	s, err := hub.OpenNotes() // the hub's too: it writes a late answer given after this askbridge left
	if err == nil {
		return s
	}
	logger.Warn("askbridge's notes for the next prompt live only as long as this process", "err", err)
	return nil
}
