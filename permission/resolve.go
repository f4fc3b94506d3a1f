package permission

// Answer resolves a pending set with r; r.Source says from where, and is
// SourceClient when empty.
func (b *Board) Answer(id string, r Result) error {
	if r.Source == "" {
		r.Source = SourceClient
	}
	state, event := StateAnswered, EventReplied
	if r.Cancelled {
		state, event = StateCancelled, EventRejected
	}
	return b.resolve(id, r, state, event)
}

// Cancel resolves a pending set as cancelled, or as timed out when reason
// is ReasonTimeout; the source is SourceTimeout then, else SourceClient.
func (b *Board) Cancel(id, reason string) error {
	source := SourceClient
	if reason == ReasonTimeout {
		source = SourceTimeout
	}
	return b.CancelFrom(id, source, reason)
}

// CancelFrom is Cancel by a named source, such as SourceDesk.
func (b *Board) CancelFrom(id string, source Source, reason string) error {
	state := StateCancelled
	if reason == ReasonTimeout {
		state = StateTimeout
	}
	return b.resolve(id, Result{Cancelled: true, Reason: reason, Source: source}, state, EventRejected)
}

func (b *Board) resolve(id string, r Result, state State, event EventType) error {
	b.mu.Lock()
	t, err := b.pending(id)
	if err == nil {
		b.settle(t, r, state, event)
	}
	b.mu.Unlock()
	return err
}

// pending is the pending set id; b.mu is held.
func (b *Board) pending(id string) (*Ticket, error) {
	t, ok := b.tickets[id]
	switch {
	case !ok:
		return nil, ErrUnknown
	case t.p.State != StatePending:
		return nil, ErrResolved
	}
	return t, nil
}

// settle resolves t; b.mu is held.
func (b *Board) settle(t *Ticket, r Result, state State, event EventType) {
	shown := r.Redacted()
	t.p.State = state
	t.p.Result, t.result = &shown, &r
	b.publish(event, t.p)
	t.cancel()
}
