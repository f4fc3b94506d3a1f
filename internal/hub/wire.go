package hub

import (
	"time"

	"github.com/askbridge/askbridge/internal/pairing"

	"github.com/askbridge/askbridge/permission"
)

// Message types on the socket, one JSON object a line.
const (
	// From an askbridge: who it is (first, once), then its sets.
	msgHello = "hello"
	msgAsked = "asked" // a set is pending (again, after a reconnect)
	msgEnded = "ended" // a set was answered, cancelled or timed out
	msgNoted = "noted" // a pending set's note changed (permission.Board.Note)
	// From the hub: a set answered or rejected at the hub (Result), or
	// held there (Until).
	msgAnswer = "answer"
	msgHold   = "hold"
)

// message is one line on the socket.
type message struct {
	Type     string              `json:"type"`
	Instance *Instance           `json:"instance,omitempty"`
	Set      *permission.Pending `json:"set,omitempty"`
	ID       string              `json:"id,omitempty"`
	Result   *permission.Result  `json:"result,omitempty"`
	Until    *time.Time          `json:"until,omitempty"`
	// Mode and By: a mode switch (msgSetMode, mode.go).
	Mode string         `json:"mode,omitempty"`
	By   *permission.By `json:"by,omitempty"`
	// Device requests and their answers (devices.go).
	Code    string           `json:"code,omitempty"`
	URL     string           `json:"url,omitempty"`
	Devices []pairing.Device `json:"devices,omitempty"`
	Error   string           `json:"error,omitempty"`
}

// Instance is an askbridge as the hub knows it.
type Instance struct {
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
	// (the set's own, permission.Pending.Context), in what a set's origin
	// says: the cards read it where they read the mode.
	Context *permission.Context `json:"context,omitempty"`
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

// maxLine bounds one line on the socket: a set's questions, as large as
// the agent made them, fit well within it.
const maxLine = 16 << 20

// queue is how many messages wait for a peer that is slow to read them;
// a full queue drops the connection instead of blocking the sender.
const queue = 256

// writeTimeout bounds writing one message: a stopped peer costs that long
// at most, in a goroutine of its own, before the connection is dropped.
const writeTimeout = 2 * time.Second
