package permission

// The board's one door: every way a set ends (answered, cancelled, timed
// out, withdrawn, an answer the hub sent applied here) goes through
// Settle, which weighs who ends it (By's Route and Proof) with the gate
// (gate.go) before anything is settled. ProgressBy, which takes a set a
// step at a time, ends it through the same door.

// ByEditor is the editor answering through its own permission request or
// form: the asker's own route, which needs no credential.
func ByEditor() By { return By{Route: RouteEditor, Source: SourceClient} }

// BySelf is askbridge ending a set by itself: a deadline, the client's or
// the agent's withdrawal, a flow that failed, an askbridge that left. It
// cancels anything and answers only a question (--question-timeout
// recommended): askbridge never says yes for the user.
func BySelf(source Source) By { return By{Route: RouteSelf, Source: source} }

// Settle ends set id with r, by by, when the gate lets by end it that way:
// an answer as Gate weighs any answer, a cancel with the route's
// credential alone; a paired device's, while another device claims the
// set, is refused with a *ClaimedError. r.Source, when empty, is by's
// (SourceClient when neither says), r.Device by's name and r.Proof what
// by's route checked. A refusal leaves the set pending.
func (b *Board) Settle(id string, r Result, by By) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	t, err := b.pending(id)
	if err != nil {
		return err
	}
	return b.end(t, r, by)
}

// Withdraw cancels set id (times it out when reason is ReasonTimeout)
// through Settle.
func (b *Board) Withdraw(id, reason string, by By) error {
	return b.Settle(id, Result{Cancelled: true, Reason: reason}, by)
}

// end is the door: it gates and settles t; b.mu is held.
func (b *Board) end(t *Ticket, r Result, by By) error {
	if err := GateEnd(t.p, by, r.Cancelled); err != nil {
		return err
	}
	if c := t.p.Claim; c.live() && c.Device != by.Device && claimable[by.Route] {
		return &ClaimedError{Claim: *c}
	}
	if r.Source == "" {
		r.Source = by.Source
	}
	if r.Source == "" {
		r.Source = SourceClient
	}
	if r.Device == "" {
		r.Device = by.Name
	}
	r.Proof = by.Proof
	state, event := StateAnswered, EventReplied
	switch {
	case r.Cancelled && r.Reason == ReasonTimeout:
		state, event = StateTimeout, EventRejected
	case r.Cancelled:
		state, event = StateCancelled, EventRejected
	}
	b.settle(t, r, state, event)
	return nil
}

// claimable are the routes a device's claim holds back: a person on
// another device. The asker's own routes, askbridge itself and the hub
// (which keeps its own claims) are not.
var claimable = map[Route]bool{RoutePage: true, RouteInbox: true, RouteTap: true}

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

// settle resolves t; b.mu is held. Only end calls it.
func (b *Board) settle(t *Ticket, r Result, state State, event EventType) {
	shown := r.Redacted()
	t.p.State = state
	t.p.Result, t.result = &shown, &r
	b.publish(event, t.p)
	t.cancel()
}
