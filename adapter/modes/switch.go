package modes

import (
	"context"
	"fmt"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/permission"
)

// setModeWait bounds how long a switch waits for the agent's answer.
const setModeWait = 10 * time.Second

// Asks ranks a mode's kind by how much the agent asks in it: 0 runs
// every tool unasked, 1 decides itself what to ask, 2 asks. A switch to a
// higher rank asks more.
func Asks(k dialect.ModeKind) int {
	switch k {
	case dialect.ModeFullAccess:
		return 0
	case dialect.ModeAutoReview:
		return 1
	}
	return 2
}

// Board is m as the board's cards and switchers read it
// (permission.SessionMode): each mode ranked by how much the agent asks in
// it (Asks), and what the cards say of one that runs tools unasked.
func (m Mode) Board() permission.SessionMode {
	out := permission.SessionMode{ID: m.ID, Name: m.Name, Description: m.Description, Unasked: m.Warning(), Asks: Asks(m.Kind)}
	for _, a := range m.Available {
		out.Available = append(out.Available, permission.ModeOption{ID: a.ID, Name: a.Name, Description: a.Description, Asks: Asks(a.Kind)})
	}
	return out
}

// Switch is the board's mode switcher (permission.ModeSwitcher): it
// switches session to mode with session/set_mode on the user's behalf, once
// the mode is one the agent offers and, unless it asks more than the
// current one, by's route checked the user's presence. The editor sees the
// agent's own current_mode_update, if it sends one, and askbridge's line
// naming who switched.
func (t *Tracker) Switch(set permission.Pending, mode string, by permission.By) error {
	session := set.SessionID
	cur, ok := t.Mode(session)
	if !ok {
		return fmt.Errorf("the agent reported no modes for this session")
	}
	to, err := cur.Board().Switch(mode, by)
	if err != nil || to.ID == cur.ID {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), setModeWait)
	defer cancel()
	if _, err := t.agent.Call(ctx, acp.AgentMethodSessionSetMode, acp.SetSessionModeRequest{SessionId: acp.SessionId(session), ModeId: acp.SessionModeId(mode)}); err != nil {
		return fmt.Errorf("the agent did not switch: %w", err)
	}
	who := by.Name
	if who == "" {
		who = "a paired device"
	}
	t.cfg.Logger.Info("askbridge: switched the session's mode on the user's behalf", "session", session, "from", cur.ID, "to", mode,
		"device", who, "route", string(by.Source), "proof", by.Proof.String())
	t.setCurrentMode(session, mode, false)
	t.cfg.Tell(session, fmt.Sprintf("askbridge: the session's mode was switched to %q from the %s by %s.", to.Title(), sourceWords(by.Source), who))
	return nil
}

// sourceWords names where a switch came from.
func sourceWords(s permission.Source) string {
	switch s {
	case permission.SourceHub:
		return "hub's page"
	case "", permission.SourceDesk:
		return "desk's page"
	}
	return string(s)
}
