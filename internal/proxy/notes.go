package proxy

import (
	"log/slog"
	"path/filepath"

	"github.com/askbridge/askbridge/internal/hub"
	"github.com/askbridge/askbridge/internal/notes"
)

// OpenNotes is the store of what a session's next prompt gets, in
// askbridge's state folder beside the hub's history (a folder the contained
// agent sees empty), made before the agent starts; nil, logged, when there
// is none: the notes then live as long as this process.
func OpenNotes(logger *slog.Logger) *notes.Store {
	p, err := hub.HistoryPath()
	if err == nil {
		var s *notes.Store
		if s, err = notes.Open(filepath.Join(filepath.Dir(p), "notes"), notes.Limits{}); err == nil {
			return s
		}
	}
	logger.Warn("askbridge's notes for the next prompt live only as long as this process", "err", err)
	return nil
}
