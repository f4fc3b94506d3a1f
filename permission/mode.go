package permission

import (
	"errors"
	"fmt"
)

// A person answering a set may also switch its session's mode (ACP's
// session/set_mode): to one that asks more with their device, to one that
// asks less only with their presence (a passkey). The board is where a
// route asks for it, as it answers: the route names the set it saw, the
// board finds the set's session, and whoever serves the agent (the bridge,
// or the hub for the askbridge that reported the set) switches it and
// weighs the proof, for only it knows what each mode lets the agent do.

// ModeSwitcher switches set's session to mode on by's behalf, or says why
// not (ErrModeNeedsPresence for a mode that asks less without a passkey).
type ModeSwitcher func(set Pending, mode string, by By) error

// Errors of RequestMode.
var (
	ErrNoModes           = errors.New("nobody here can switch this session's mode")
	ErrModeNeedsPresence = errors.New("a mode that asks less needs your passkey")
)

// WeighModeSwitch is the rule every switcher applies, where it knows how
// much each mode asks (the higher, the more approvals reach a person): a
// switch to a mode that asks no more than the current one needs the
// user's presence.
func WeighModeSwitch(curAsks, toAsks int, by By) error {
	if toAsks <= curAsks && !by.Proof.Has(ProofPresence) {
		return ErrModeNeedsPresence
	}
	return nil
}

// HandleModes makes fn the board's mode switcher.
func (b *Board) HandleModes(fn ModeSwitcher) {
	b.mu.Lock()
	b.modes = fn
	b.mu.Unlock()
}

// RequestMode asks for set id's session to be switched to mode, by by: a
// set of any state, for a card stays on the page after it is answered.
func (b *Board) RequestMode(id, mode string, by By) error {
	b.mu.Lock()
	t, ok := b.tickets[id]
	var p Pending
	if ok {
		p = t.p
	}
	fn := b.modes
	b.mu.Unlock()
	switch {
	case !ok:
		return ErrUnknown
	case fn == nil:
		return ErrNoModes
	case mode == "":
		return fmt.Errorf("no mode named")
	}
	return fn(p, mode, by)
}
