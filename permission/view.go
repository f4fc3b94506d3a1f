package permission

import (
	"cmp"
	"slices"
)

// What front ends see of the board: one set, the pending ones, the
// sessions and their history. Each is a copy, taken under the lock,
// with its origin (boardorigin.go).

// Get returns the set with the given id.
func (b *Board) Get(id string) (Pending, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	t, ok := b.tickets[id]
	if !ok {
		return Pending{}, false
	}
	return b.described(t.p), true
}

// List returns the pending sets, oldest first.
func (b *Board) List() []Pending {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []Pending
	for _, ts := range b.history {
		for _, t := range ts {
			if t.p.State == StatePending {
				out = append(out, b.described(t.p))
			}
		}
	}
	slices.SortStableFunc(out, func(x, y Pending) int { return x.Asked.Compare(y.Asked) })
	return out
}

// Sessions returns the sessions that asked, in the order of their first set.
func (b *Board) Sessions() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]string, 0, len(b.history))
	for s := range b.history {
		out = append(out, s)
	}
	slices.SortFunc(out, func(x, y string) int { return cmp.Compare(b.history[x][0].seq, b.history[y][0].seq) })
	return out
}

// History returns every set asked in session, in round order; ok is false
// for a session the board has never seen.
func (b *Board) History(session string) ([]Pending, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	ts, ok := b.history[session]
	out := make([]Pending, len(ts))
	for i, t := range ts {
		out[i] = b.described(t.p)
	}
	return out, ok
}
