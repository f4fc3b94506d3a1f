package dialecttest

import (
	"log/slog"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/permission"
)

// Host is a dialect.Host whose answers are its fields; the zero Host is a
// client that renders neither forms nor URLs, nobody at the desk,
// default limits, discarded logs, and no peers to write to.
type Host struct {
	Forms, URLs bool               // ClientRendersForms, ClientRendersURLs
	Desk        bool               // Attended
	Active      string             // ActiveSession when none is named
	Cwd         map[string]string  // SessionCwd by session id
	Approve     dialect.Approvals  // Approvals
	Limit       *permission.Limits // Limits; nil is permission.DefaultLimits
	Log         *slog.Logger       // Logger; nil discards
	Editor, Bot *relay.Peer        // Client and Agent
}

var _ dialect.Host = Host{}

func (h Host) ClientRendersForms() bool { return h.Forms }
func (h Host) ClientRendersURLs() bool  { return h.URLs }
func (h Host) Attended() bool           { return h.Desk }
func (h Host) SessionCwd(id string) string {
	return h.Cwd[id]
}
func (h Host) Approvals() dialect.Approvals { return h.Approve }
func (h Host) Client() *relay.Peer          { return h.Editor }
func (h Host) Agent() *relay.Peer           { return h.Bot }

// ActiveSession is named, or when empty Active.
func (h Host) ActiveSession(named string) string {
	if named != "" {
		return named
	}
	return h.Active
}

// Limits is Limit, or permission.DefaultLimits when it is nil.
func (h Host) Limits() permission.Limits {
	if h.Limit != nil {
		return *h.Limit
	}
	return permission.DefaultLimits()
}

// Logger is Log, or a logger that discards when it is nil.
func (h Host) Logger() *slog.Logger {
	if h.Log != nil {
		return h.Log
	}
	return slog.New(slog.DiscardHandler)
}
