package adapter

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

	acp "github.com/coder/acp-go-sdk"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/relay"
)

// SessionMode is a session's mode as its agent reports it (session/new's,
// load's or resume's modes; current_mode_update; a session/set_mode that
// succeeded), in the agent's own words, and what it lets the agent do
// without asking (dialect.ModeKind).
type SessionMode struct {
	ID          string           `json:"id"`
	Name        string           `json:"name,omitempty"`
	Description string           `json:"description,omitempty"`
	Kind        dialect.ModeKind `json:"kind,omitempty"`
	// Available are the modes the agent offers, as it listed them.
	Available []ModeChoice `json:"available,omitempty"`
}

// ModeChoice is one mode the agent offers.
type ModeChoice struct {
	ID          string           `json:"id"`
	Name        string           `json:"name"`
	Description string           `json:"description,omitempty"`
	Kind        dialect.ModeKind `json:"kind,omitempty"`
}

// Warning is what askbridge says of a mode in which tools run without
// asking; "" for one that asks.
func (m SessionMode) Warning() string {
	name := m.Name
	if name == "" {
		name = m.ID
	}
	switch m.Kind {
	case dialect.ModeAutoReview:
		return fmt.Sprintf("the session is in the agent's %q mode: the agent decides itself which tool calls to ask about, and runs the rest without asking", name)
	case dialect.ModeFullAccess:
		return fmt.Sprintf("the session is in the agent's %q mode: the agent runs every tool without asking", name)
	}
	return ""
}

// modes are the sessions' modes, by session id, and which sessions the
// editor was told of an unasked mode in.
type modes struct {
	mu   sync.Mutex
	by   map[string]*SessionMode
	told map[string]string // session -> the mode id the editor was told of
}

// modeList is ACP's SessionModeState, as read here.
type modeList struct {
	CurrentModeID  string `json:"currentModeId"`
	AvailableModes []struct {
		ID          string          `json:"id"`
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Meta        json.RawMessage `json:"_meta"`
	} `json:"availableModes"`
}

// installModes reads the sessions' modes: from the responses that start a
// session, from the agent's current_mode_update, and from a set_mode the
// agent accepted.
func (b *Bridge) installModes() {
	for _, method := range []string{acp.AgentMethodSessionNew, acp.AgentMethodSessionLoad, "session/resume"} {
		b.relay.FromClient(method, b.onModesReply)
	}
	b.relay.FromClient(acp.AgentMethodSessionSetMode, b.onSetMode)
	b.relay.FromAgentUpdates(b.onModeUpdate, "current_mode_update")
}

func (b *Bridge) onModesReply(m *relay.Message) relay.Verdict {
	session, _ := relay.StringField(m.Raw, "params", "sessionId")
	return relay.Verdict{OnResponse: func(resp json.RawMessage) json.RawMessage {
		if !bytes.Contains(resp, []byte(`"currentModeId"`)) {
			return nil
		}
		var r struct {
			Result struct {
				SessionID string    `json:"sessionId"`
				Modes     *modeList `json:"modes"`
			} `json:"result"`
		}
		if json.Unmarshal(resp, &r) != nil || r.Result.Modes == nil {
			return nil
		}
		if r.Result.SessionID != "" {
			session = r.Result.SessionID
		}
		if session != "" {
			b.setModes(session, r.Result.Modes)
		}
		return nil
	}}
}

func (b *Bridge) onModeUpdate(m *relay.Message) relay.Verdict {
	if !m.IsUpdate("current_mode_update") { // most updates are not: no decoding
		return relay.Pass
	}
	var p struct {
		SessionID string `json:"sessionId"`
		Update    struct {
			SessionUpdate string `json:"sessionUpdate"`
			CurrentModeID string `json:"currentModeId"`
		} `json:"update"`
	}
	if m.Params(&p) != nil || p.Update.SessionUpdate != "current_mode_update" || p.Update.CurrentModeID == "" {
		return relay.Pass
	}
	// After: the editor sees the agent's update before askbridge's words.
	return relay.Verdict{After: func() { b.setCurrentMode(p.SessionID, p.Update.CurrentModeID, true) }}
}

func (b *Bridge) onSetMode(m *relay.Message) relay.Verdict {
	var p struct {
		SessionID string `json:"sessionId"`
		ModeID    string `json:"modeId"`
	}
	if m.Params(&p) != nil || p.SessionID == "" || p.ModeID == "" {
		return relay.Pass
	}
	return relay.Verdict{OnResponse: func(resp json.RawMessage) json.RawMessage {
		if bytes.Contains(resp, []byte(`"result"`)) {
			b.setCurrentMode(p.SessionID, p.ModeID, false)
		}
		return nil
	}}
}
