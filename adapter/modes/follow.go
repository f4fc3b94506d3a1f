package modes

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"

	acp "github.com/coder/acp-go-sdk"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/relay"
)

// Mode is a session's mode as its agent reports it (session/new's,
// load's or resume's modes; current_mode_update; a session/set_mode that
// succeeded), in the agent's own words, and what it lets the agent do
// without asking (dialect.ModeKind).
type Mode struct {
	ID          string           `json:"id"`
	Name        string           `json:"name,omitempty"`
	Description string           `json:"description,omitempty"`
	Kind        dialect.ModeKind `json:"kind,omitempty"`
	// Available are the modes the agent offers, as it listed them.
	Available []Choice `json:"available,omitempty"`
}

// Choice is one mode the agent offers.
type Choice struct {
	ID          string           `json:"id"`
	Name        string           `json:"name"`
	Description string           `json:"description,omitempty"`
	Kind        dialect.ModeKind `json:"kind,omitempty"`
}

// Warning is what askbridge says of a mode in which tools run without
// asking; "" for one that asks.
func (m Mode) Warning() string {
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

// Tracker is the sessions' modes, by session id, and which sessions the
// editor was told of an unasked mode in. The zero value knows none until
// Follow.
type Tracker struct {
	mu    sync.Mutex
	by    map[string]*Mode
	told  map[string]string // session -> the mode id the editor was told of
	cfg   Config
	agent *relay.Peer
}

// Config is what a Tracker needs of the bridge that follows its relay
// with it.
type Config struct {
	// Dialects judge a mode by its id (dialect.ModeJudge) when the agent's
	// list does not say.
	Dialects []dialect.Dialect
	// OnMode, when set, hears every session's mode as its agent reports
	// it, for the cards that show it.
	OnMode func(session string, m Mode)
	// Tell shows the editor askbridge's words in a session.
	Tell func(session, text string)
	// WarnUnasked says that approvals are expected away from the editor:
	// the editor is then told of a mode that runs tools without asking.
	WarnUnasked bool
	Logger      *slog.Logger
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

// Follow reads, on r, the sessions' modes: from the responses that start
// a session, from the agent's current_mode_update, and from a set_mode the
// agent accepted.
func (t *Tracker) Follow(r *relay.Relay, cfg Config) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	t.cfg, t.agent = cfg, r.Agent
	for _, method := range []string{acp.AgentMethodSessionNew, acp.AgentMethodSessionLoad, "session/resume"} {
		r.FromClient(method, t.onModesReply)
	}
	r.FromClient(acp.AgentMethodSessionSetMode, t.onSetMode)
	r.FromAgentUpdates(t.onModeUpdate, "current_mode_update")
}

func (t *Tracker) onModesReply(m *relay.Message) relay.Verdict {
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
			t.setModes(session, r.Result.Modes)
		}
		return nil
	}}
}

func (t *Tracker) onModeUpdate(m *relay.Message) relay.Verdict {
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
	return relay.Verdict{After: func() { t.setCurrentMode(p.SessionID, p.Update.CurrentModeID, true) }}
}

func (t *Tracker) onSetMode(m *relay.Message) relay.Verdict {
	var p struct {
		SessionID string `json:"sessionId"`
		ModeID    string `json:"modeId"`
	}
	if m.Params(&p) != nil || p.SessionID == "" || p.ModeID == "" {
		return relay.Pass
	}
	return relay.Verdict{OnResponse: func(resp json.RawMessage) json.RawMessage {
		if bytes.Contains(resp, []byte(`"result"`)) {
			t.setCurrentMode(p.SessionID, p.ModeID, false)
		}
		return nil
	}}
}
