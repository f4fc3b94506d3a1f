package adapter

import (
	"bytes"

	"github.com/askbridge/askbridge/adapter/dialect"
)

// Mode is session's mode as its agent last reported it, and whether it
// reported one.
func (b *Bridge) Mode(session string) (SessionMode, bool) {
	b.modes.mu.Lock()
	defer b.modes.mu.Unlock()
	m, ok := b.modes.by[session]
	if !ok {
		return SessionMode{}, false
	}
	out := *m
	out.Available = append([]ModeChoice(nil), m.Available...)
	return out, true
}

// setModes records what a session-starting response said of its modes.
func (b *Bridge) setModes(session string, l *modeList) {
	m := &SessionMode{ID: l.CurrentModeID}
	for _, a := range l.AvailableModes {
		m.Available = append(m.Available, ModeChoice{ID: a.ID, Name: a.Name, Description: a.Description, Kind: b.modeKind(a.ID, a.Meta)})
	}
	b.modes.mu.Lock()
	if b.modes.by == nil {
		b.modes.by = map[string]*SessionMode{}
	}
	b.modes.by[session] = m
	b.modes.mu.Unlock()
	b.setCurrentMode(session, l.CurrentModeID, false)
}

// setCurrentMode makes id the session's mode, in the words of the list the
// agent gave, and says so where it matters: the log and Options.OnMode
// always, the editor (now, if the session runs a turn, else at its next
// prompt) when approvals are expected away from it and the mode runs tools
// without asking.
func (b *Bridge) setCurrentMode(session, id string, inTurn bool) {
	b.modes.mu.Lock()
	if b.modes.by == nil {
		b.modes.by = map[string]*SessionMode{}
	}
	m := b.modes.by[session]
	if m == nil {
		m = &SessionMode{}
		b.modes.by[session] = m
	}
	m.ID, m.Name, m.Description, m.Kind = id, "", "", b.modeKind(id, nil)
	for _, a := range m.Available {
		if a.ID == id {
			m.Name, m.Description = a.Name, a.Description
			if a.Kind != dialect.ModeAsks {
				m.Kind = a.Kind
			}
		}
	}
	out := *m
	b.modes.mu.Unlock()
	if w := out.Warning(); w != "" {
		b.logger.Warn("askbridge: "+w, "session", session, "mode", id)
	} else {
		b.logger.Info("session mode", "session", session, "mode", id)
	}
	if b.opts.OnMode != nil {
		b.opts.OnMode(session, out)
	}
	if inTurn {
		b.tellMode(session)
	}
}

// tellMode tells the editor, once per mode, that the session's mode runs
// tools without asking, when --approvals sends approvals away from it
// (where, then, fewer come than the user expects).
func (b *Bridge) tellMode(session string) {
	if b.opts.Approvals == ApprovalsClient || b.relay == nil {
		return
	}
	b.modes.mu.Lock()
	m, ok := b.modes.by[session]
	var w string
	if ok && b.modes.told[session] != m.ID {
		w = m.Warning()
		if b.modes.told == nil {
			b.modes.told = map[string]string{}
		}
		b.modes.told[session] = m.ID
	}
	b.modes.mu.Unlock()
	if w != "" {
		b.tellClient(session, "askbridge: "+w+"; approvals for this session may never reach you or the hub. To make the agent ask, switch the session's mode (see docs/approvals.md, \"Modes that run tools unasked\").")
	}
}

// modeKind is what mode id lets the agent do unasked: the mode's own _meta
// kind when it gives one, else the first dialect that knows the id.
func (b *Bridge) modeKind(id string, meta []byte) dialect.ModeKind {
	for _, k := range []dialect.ModeKind{dialect.ModeFullAccess, dialect.ModeAutoReview} {
		if bytes.Contains(meta, []byte(`"kind":"`+string(k)+`"`)) {
			return k
		}
	}
	for _, d := range b.dialects {
		if j, ok := d.(dialect.ModeJudge); ok {
			if k := j.ModeKind(id); k != dialect.ModeAsks {
				return k
			}
		}
	}
	return dialect.ModeAsks
}
