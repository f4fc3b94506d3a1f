package hub

import (
	"fmt"
	"time"

	"github.com/askbridge/askbridge/internal/decisions"
	"github.com/askbridge/askbridge/permission"
)

// msgSetMode, from the hub: switch the set's session to Mode, on By's
// behalf (a paired device, with its passkey when the mode asks less). The
// askbridge puts it on its board as any answer from the hub, and its
// bridge sends the agent session/set_mode.
const msgSetMode = "set_mode"

// switchMode is the hub board's mode switcher: the set's askbridge knows
// the agent; the hub checks the rule it can see (a mode that asks less
// needs the user's presence, which only its page checked) and sends the
// switch on, and keeps it in the decisions log.
func (h *Hub) switchMode(set permission.Pending, mode string, by permission.By) error {
	h.mu.Lock()
	m, ok := h.mirrors[set.ID]
	var cur SessionMode
	var from Instance
	if ok {
		from = m.peer.inst
		cur = from.Modes[m.session]
	}
	h.mu.Unlock()
	if !ok || m.there.Load() {
		// A card kept after its askbridge left (late.go) has no agent to
		// switch: the switch would be sent to no one and logged as done.
		return fmt.Errorf("%w: its askbridge is no longer connected", permission.ErrNoModes)
	}
	to, err := cur.Switch(mode, by)
	if err != nil || to.ID == cur.ID {
		return err
	}
	sent := by
	sent.Source = permission.SourceHub
	m.peer.link.send(message{Type: msgSetMode, ID: m.remote, Mode: mode, By: &sent})
	h.recordMode(set, from, cur, to, by)
	return nil
}

// recordMode keeps a switch in the decisions log: who switched which
// session from what to what, with a passkey or not.
func (h *Hub) recordMode(set permission.Pending, from Instance, cur SessionMode, to ModeOption, by permission.By) {
	h.mu.Lock()
	l := h.decisions
	h.mu.Unlock()
	if l == nil {
		return
	}
	r := decisions.Record{Time: time.Now(), Agent: from.Agent, Host: from.Host, CWD: from.CWD, Instance: from.ID,
		Session: set.SessionID, Set: set.ID, Kind: permission.KindMode, Asked: "switch the session's mode from " + cur.Title(),
		Outcome: permission.StateAnswered, Answer: to.Title(), Route: permission.SourceHub, Device: by.Name}
	if by.Proof.Has(permission.ProofPresence) {
		r.Reason = "with the device's passkey"
	}
	if err := l.Append(r); err != nil {
		h.logger.Warn("hub: the decisions log could not keep a mode switch", "err", err)
	}
}
