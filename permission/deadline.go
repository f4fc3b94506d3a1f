package permission

import (
	"errors"
	"time"
)

// ErrNoDeadline is returned by Hold for a set that cannot time out.
var ErrNoDeadline = errors.New("question has no deadline")

// Deadline is when the set times out; zero when it cannot.
func (t *Ticket) Deadline() time.Time {
	t.board.mu.Lock()
	defer t.board.mu.Unlock()
	if t.p.Deadline == nil {
		return time.Time{}
	}
	return *t.p.Deadline
}

// Hold keeps a pending set from timing out within d of now: someone is
// answering it (focused an answer, typing). It returns the deadline.
func (b *Board) Hold(id string, d time.Duration) (time.Time, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	t, ok := b.tickets[id]
	switch {
	case !ok:
		return time.Time{}, ErrUnknown
	case t.p.State != StatePending:
		return time.Time{}, ErrResolved
	case t.p.Deadline == nil:
		return time.Time{}, ErrNoDeadline
	}
	if until := time.Now().Add(d); until.After(*t.p.Deadline) {
		t.p.Deadline = &until
		b.publish(EventHeld, t.p)
	}
	return *t.p.Deadline, nil
}

// Expiring tells the watchers that a pending set times out soon.
func (b *Board) Expiring(id string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if t, ok := b.tickets[id]; ok && t.p.State == StatePending {
		b.publish(EventExpiring, t.p)
	}
}
