package modes

import (
	"bytes"

	"github.com/askbridge/askbridge/adapter/dialect"
)

// Mode is session's mode as its agent last reported it, and whether it
// reported one.
func (t *Tracker) Mode(session string) (Mode, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	m, ok := t.by[session]
	if !ok {
		return Mode{}, false
	}
	out := *m
	out.Available = append([]Choice(nil), m.Available...)
	return out, true
}

// setModes records what a session-starting response said of its modes.
func (t *Tracker) setModes(session string, l *modeList) {
	m := &Mode{ID: l.CurrentModeID}
	for _, a := range l.AvailableModes {
		m.Available = append(m.Available, Choice{ID: a.ID, Name: a.Name, Description: a.Description, Kind: t.modeKind(a.ID, a.Meta)})
	}
	t.mu.Lock()
	if t.by == nil {
		t.by = map[string]*Mode{}
	}
	t.by[session] = m
	t.mu.Unlock()
	t.setCurrentMode(session, l.CurrentModeID, false)
}

// setCurrentMode makes id the session's mode, in the words of the list the
// agent gave, and says so where it matters: the log and Config.OnMode
// always, the editor (now, if the session runs a turn, else at its next
// prompt) when approvals are expected away from it and the mode runs tools
// without asking.
func (t *Tracker) setCurrentMode(session, id string, inTurn bool) {
	t.mu.Lock()
	if t.by == nil {
		t.by = map[string]*Mode{}
	}
	m := t.by[session]
	if m == nil {
		m = &Mode{}
		t.by[session] = m
	}
	m.ID, m.Name, m.Description, m.Kind = id, "", "", t.modeKind(id, nil)
	for _, a := range m.Available {
		if a.ID == id {
			m.Name, m.Description = a.Name, a.Description
			if a.Kind != dialect.ModeAsks {
				m.Kind = a.Kind
			}
		}
	}
	out := *m
	t.mu.Unlock()
	if w := out.Warning(); w != "" {
		t.cfg.Logger.Warn("askbridge: "+w, "session", session, "mode", id)
	} else {
		t.cfg.Logger.Info("session mode", "session", session, "mode", id)
	}
	if t.cfg.OnMode != nil {
		t.cfg.OnMode(session, out)
	}
	if inTurn {
		t.Tell(session)
	}
}

// Tell tells the editor, once per mode, that the session's mode runs
// tools without asking, when approvals go away from it
// (Config.WarnUnasked: where, then, fewer come than the user expects).
func (t *Tracker) Tell(session string) {
	if !t.cfg.WarnUnasked || t.cfg.Tell == nil {
		return
	}
	t.mu.Lock()
	m, ok := t.by[session]
	var w string
	if ok && t.told[session] != m.ID {
		w = m.Warning()
		if t.told == nil {
			t.told = map[string]string{}
		}
		t.told[session] = m.ID
	}
	t.mu.Unlock()
	if w != "" {
		t.cfg.Tell(session, "askbridge: "+w+"; approvals for this session may never reach you or the hub. To make the agent ask, switch the session's mode (see docs/approvals.md, \"Modes that run tools unasked\").")
	}
}

// modeKind is what mode id lets the agent do unasked: the mode's own _meta
// kind when it gives one, else the first dialect that knows the id.
func (t *Tracker) modeKind(id string, meta []byte) dialect.ModeKind {
	for _, k := range []dialect.ModeKind{dialect.ModeFullAccess, dialect.ModeAutoReview} {
		if bytes.Contains(meta, []byte(`"kind":"`+string(k)+`"`)) {
			return k
		}
	}
	for _, d := range t.cfg.Dialects {
		if j, ok := d.(dialect.ModeJudge); ok {
			if k := j.ModeKind(id); k != dialect.ModeAsks {
				return k
			}
		}
	}
	return dialect.ModeAsks
}
