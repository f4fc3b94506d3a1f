package permission

import "reflect"

// Where a board's sets come from. The board holds an origin per source
// (Request.From: "" for its own sets, the hub gives each askbridge a key)
// as whoever posts the sets describes it, and hands each set out with its
// origin as its card shows it (Pending.Origin): the pages read the set,
// never a second table of origins. A pending set's origin is the source's
// as it is now, for a mode can change while a set waits; once its source
// is forgotten (an askbridge left the hub), or for a set restored from a
// history, it stays as it was.

// EventOrigin: a pending set's origin changed (its session's mode, its
// folder, the agent's name): the pages redraw its card. It stays
// answerable; no one is told anew.
const EventOrigin EventType = "question.origin"

// source is one Request.From: its origin, once described, and its sets.
type source struct {
	origin  *Origin
	tickets map[*Ticket]struct{}
}

// source returns from's, made on first use; b.mu is held.
func (b *Board) source(from string) *source {
	s := b.sources[from]
	if s == nil {
		s = &source{tickets: map[*Ticket]struct{}{}}
		b.sources[from] = s
	}
	return s
}

// Describe changes where the board's own sets (Request.From "") come
// from: fn edits the origin in place, and every pending set whose card
// reads differently now is published (EventOrigin). fn runs with the
// board held: it must not call the board.
func (b *Board) Describe(fn func(*Origin)) { b.DescribeFrom("", fn) }

// DescribeFrom is Describe for the sets opened with Request.From from.
func (b *Board) DescribeFrom(from string, fn func(*Origin)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.source(from)
	before := map[*Ticket]*Origin{}
	for t := range s.tickets {
		if t.p.State == StatePending && t.p.Origin == nil {
			before[t] = b.described(t.p).Origin
		}
	}
	if s.origin == nil {
		s.origin = &Origin{}
	}
	fn(s.origin)
	for t, was := range before {
		if !reflect.DeepEqual(was, b.described(t.p).Origin) {
			b.publish(EventOrigin, t.p)
		}
	}
}

// Forget lets from's origin go (its askbridge left): each of its sets
// keeps its origin as it is now, and a set opened from it later has none
// until from is described again.
func (b *Board) Forget(from string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.sources[from]
	if s == nil {
		return
	}
	for t := range s.tickets {
		t.p = b.described(t.p)
	}
	delete(b.sources, from)
}

// described is p with its origin as its card shows it now; b.mu is held.
// A set whose origin is kept (Forget, Restore) has it already.
func (b *Board) described(p Pending) Pending {
	if p.Origin != nil {
		return p
	}
	t := b.tickets[p.ID]
	if t == nil {
		return p
	}
	if s := b.sources[t.from]; s != nil && s.origin != nil {
		p.Origin, _ = s.origin.Of(p.SessionID, p.Context)
	}
	return p
}
