package hub

import (
	"net/http"
	"path/filepath"
	"strconv"
	"time"

	"encoding/json"

	"github.com/askbridge/askbridge/internal/decisions"
)

// DecisionsPath is where the hub keeps its decisions log: beside its
// history, hub-decisions.jsonl (with hub-decisions.jsonl.1, rotated).
func DecisionsPath() (string, error) {
	p, err := HistoryPath()
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(p), "hub-decisions.jsonl"), nil
}

// Record makes the hub append every set that ends from now on to l: who
// decided what, from where, after how long. Call before Serve.
func (h *Hub) Record(l *decisions.Log) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.decisions = l
}

// record appends the set of m, which ended, to the decisions log.
func (h *Hub) record(m *mirror) {
	h.mu.Lock()
	l := h.decisions
	h.mu.Unlock()
	if l == nil || m.unkept.Load() {
		return
	}
	p, ok := h.board.Get(m.ticket.ID)
	if !ok {
		return
	}
	var from decisions.Origin
	if o := p.Origin; o != nil {
		from = decisions.Origin{Agent: o.Agent, Host: o.Host, Instance: o.ID, CWD: o.Folder}
	}
	if err := l.Append(decisions.Of(p, from, time.Now())); err != nil {
		h.logger.Warn("hub: the decisions log could not keep a set", "err", err)
	}
}

// ServeDecisions is GET /api/decisions: the newest decisions, newest first
// (?limit=N, 100 by default), for the page's history.
func (h *Hub) ServeDecisions(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	l := h.decisions
	h.mu.Unlock()
	out := []decisions.Record{}
	if l != nil {
		all, err := decisions.Read(l.Path())
		if err != nil {
			h.logger.Warn("hub: reading the decisions log", "err", err)
		}
		limit := 100
		if n, err := strconv.Atoi(r.URL.Query().Get("limit")); err == nil && n > 0 {
			limit = n
		}
		for i := len(all) - 1; i >= 0 && len(out) < limit; i-- {
			out = append(out, all[i])
		}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(out)
}
