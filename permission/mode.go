package permission

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
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

// Switch finds mode among the modes m's agent offers and weighs a switch
// to it from m by by (WeighModeSwitch): to is the mode to switch to, m's
// own when m is mode already (nothing to switch), or err says why not. The
// bridge's switcher and the hub's both switch through it, each with the
// session's mode as it knows it.
func (m SessionMode) Switch(mode string, by By) (to ModeOption, err error) {
	i := slices.IndexFunc(m.Available, func(o ModeOption) bool { return o.ID == mode })
	switch {
	case i < 0:
		return ModeOption{}, fmt.Errorf("the agent offers no mode %q", mode)
	case mode == m.ID:
		return m.Available[i], nil
	}
	to = m.Available[i]
	if err := WeighModeSwitch(m.Asks, to.Asks, by); err != nil {
		return ModeOption{}, err
	}
	return to, nil
}

// Title is how a switch names mode m: its name, else its id.
func (m SessionMode) Title() string { return cmp.Or(m.Name, m.ID) }

// Title is how a switch names mode o: its name, else its id.
func (o ModeOption) Title() string { return cmp.Or(o.Name, o.ID) }

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
