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

// Instance is an askbridge as the hub knows it: what it says of itself,
// the origin of its sets (permission.Origin).
type Instance = permission.Origin

// SessionMode and ModeOption are a session's mode and the modes its agent
// offers (permission.SessionMode, ModeOption).
type (
	SessionMode = permission.SessionMode
	ModeOption  = permission.ModeOption
)

// maxLine bounds one line on the socket: a set's questions, as large as
// the agent made them, fit well within it.
const maxLine = 16 << 20

// queue is how many messages wait for a peer that is slow to read them;
// a full queue drops the connection instead of blocking the sender.
const queue = 256

// writeTimeout bounds writing one message: a stopped peer costs that long
// at most, in a goroutine of its own, before the connection is dropped.
const writeTimeout = 2 * time.Second
