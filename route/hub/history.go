package hub

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/askbridge/askbridge/permission"
)

// Keep gives the hub a history that outlives it: the sets kept in s go
// back on the board, finished, with where they came from, and every set
// that ends from now on is added to s. Call before Serve.
func (h *Hub) Keep(s *Store) {
	restored := 0
	for _, k := range s.sets() {
		var p permission.Pending
		if err := json.Unmarshal(k.Set, &p); err != nil {
			continue
		}
		if k.Instance != nil { // where it came from, kept beside the set
			o := *k.Instance
			o.Folder = k.CWD
			p.Origin = &o
		}
		if err := h.board.Restore(p); err != nil {
			h.logger.Debug("hub: a set of the history not restored", "err", err)
			continue
		}
		restored++
		h.mu.Lock()
		// Instance ids go on after those of the history, so a new
		// askbridge's sessions are not taken for an old one's.
		if id, _, ok := strings.Cut(p.SessionID, "/"); ok {
			// Bounded: a crafted line must not bring new ids near overflow.
			if n, err := strconv.ParseInt(strings.TrimPrefix(id, "a"), 10, 64); err == nil && n > 0 && n <= permission.MaxRestored {
				for cur := h.seq.Load(); cur < n && !h.seq.CompareAndSwap(cur, n); cur = h.seq.Load() {
				}
			}
		}
		h.mu.Unlock()
	}
	h.store = s
	h.logger.Debug("hub: history restored", "sets", restored)
}

// keep adds a set that ended to the history, as the page shows it.
func (h *Hub) keep(m *mirror) {
	if h.store == nil || m.unkept.Load() {
		return
	}
	p, ok := h.board.Get(m.ticket.ID)
	if !ok || p.State == permission.StatePending {
		return
	}
	set, err := json.Marshal(p)
	if err != nil {
		return
	}
	k := kept{Set: set, Instance: p.Origin} // where it came from (the set's JSON does not say)
	if p.Origin != nil {
		k.CWD = p.Origin.Folder
	}
	if err := h.store.add(k); err != nil {
		h.logger.Warn("hub: the history could not keep a set", "err", err)
	}
}

// fromHub is the source an askbridge records for a set the hub resolved
// from source: the route the person used when the hub's page was not it
// (a notification's button, the terminal inbox), else the hub.
func fromHub(source permission.Source) permission.Source {
	switch source {
	case permission.SourceNotification, permission.SourceInbox:
		return source
	}
	return permission.SourceHub
}
