package permission

import (
	"slices"
	"time"
)

// Origin is where a set comes from: the askbridge that asked it, as it
// says of itself (its agent, its editor, its host and folders, its
// sessions' folders and modes), and as the hub knows it (ID, PeerPID,
// Connected, Pending: the hub's to set, never an askbridge's). A page
// shows one set's origin (Of): its session's folder, mode and subagent.
// It is askbridge hub's wire (hub.Instance) and what the desk's API says
// of a set ("instance").
type Origin struct {
	// ID names the connection on the hub (given by the hub, not sent).
	ID    string `json:"id"`
	Agent string `json:"agent"` // the agent's name (initialize's agentInfo), else its command's
	// AgentVersion and Client (the editor: initialize's clientInfo) are
	// known once initialize has been through.
	AgentVersion string `json:"agentVersion,omitempty"`
	Client       string `json:"client,omitempty"`
	PID          int    `json:"pid"` // as the askbridge says
	// PeerPID is the process on the socket, as the kernel says (0 where
	// it does not): the hub's to set, never the askbridge's.
	PeerPID int    `json:"peerPid,omitempty"`
	Host    string `json:"host"`
	// CWD is the askbridge's working folder: the project, as an editor
	// starts it.
	CWD string `json:"cwd"`
	// Home is the askbridge's home folder (its own, on its own machine),
	// for the page to show a folder under it as "~/…".
	Home string `json:"home,omitempty"`
	// Sessions are the folders of the sessions, by session id (session/new,
	// load, resume).
	Sessions map[string]string `json:"sessions,omitempty"`
	// Subagents say, by child session id, whose subagent a session is:
	// "subagent of <task> in <folder>" (from subagent_update). Subagent is
	// that of one set's session, in what a set's origin says.
	Subagents map[string]string `json:"subagents,omitempty"`
	Subagent  string            `json:"subagent,omitempty"`
	Connected time.Time         `json:"connected"`
	Pending   int               `json:"pending"` // sets waiting, as GET /instance lists it
	// Uncontained, when set, is what the cards say of an agent that runs
	// outside a container (askbridge --contain): anything it starts can
	// act as the user.
	Uncontained string `json:"uncontained,omitempty"`
	// Modes are the sessions' modes as their agents report them, by
	// session id; Mode is that of one set's session, in what a set's
	// origin says.
	Modes map[string]SessionMode `json:"modes,omitempty"`
	Mode  *SessionMode           `json:"mode,omitempty"`
	// Context is what one set's agent said and planned before it asked
	// (the set's own, Pending.Context), in what a set's origin
	// says: the cards read it where they read the mode.
	Context *Context `json:"context,omitempty"`
	// Folder is one set's folder, in what a set's origin says: its
	// session's, else CWD. The pages write it beside the origin ("cwd"),
	// the hub's history too: not in the origin's own JSON.
	Folder string `json:"-"`
}

// SessionMode is a session's mode in its agent's words (ACP's modes), and
// Unasked, when the mode runs tools without asking, what the cards say of
// it. Asks ranks how much the agent asks in it (0 runs every tool unasked,
// 1 decides itself what to ask, 2 asks): a switch to a higher rank asks
// more, and a device may make it without a passkey. Available are the
// modes the agent offers.
type SessionMode struct {
	ID          string       `json:"id"`
	Name        string       `json:"name,omitempty"`
	Description string       `json:"description,omitempty"`
	Unasked     string       `json:"unasked,omitempty"`
	Asks        int          `json:"asks"`
	Available   []ModeOption `json:"available,omitempty"`
}

// ModeOption is one mode an agent offers.
type ModeOption struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Asks        int    `json:"asks"`
}

// Of is o as one set's card shows it, the set asked in session with ctx
// (what its agent said before it asked): its session's subagent and mode,
// and no other session's; and the set's folder, its session's, else the
// askbridge's.
func (o Origin) Of(session string, ctx *Context) (set *Origin, cwd string) {
	cwd = o.CWD
	if c := o.Sessions[session]; c != "" {
		cwd = c
	}
	o.Subagent = o.Subagents[session]
	o.Mode = nil
	if mode, ok := o.Modes[session]; ok {
		mode.Available = slices.Clone(mode.Available) // the card's own, whatever changes o's
		o.Mode = &mode
	}
	o.Sessions, o.Subagents, o.Modes = nil, nil, nil
	o.Context, o.Folder = ctx, cwd
	return &o, cwd
}
