package adapter

import (
	"log/slog"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/modes"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/adapter/subagent"
	"github.com/askbridge/askbridge/permission"
)

// The Bridge is the Host of its dialects.
var _ dialect.Host = (*Bridge)(nil)

// ClientRendersForms reports whether questions pass through as forms.
func (b *Bridge) ClientRendersForms() bool {
	r := b.render()
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.clientForm && r != RenderPermission && r != RenderYesNo
}

// ClientRendersURLs reports whether URL elicitations pass through.
func (b *Bridge) ClientRendersURLs() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.clientURL && b.opts.Render != RenderPermission
}

// Attended reports whether the desk, the hub or a notifier is there.
func (b *Bridge) Attended() bool { return b.opts.Attended != nil && b.opts.Attended() }

// Limits are the question limits.
func (b *Bridge) Limits() permission.Limits { return b.opts.Limits }

// Logger is the bridge's logger.
func (b *Bridge) Logger() *slog.Logger { return b.logger }

// Client writes to the client.
func (b *Bridge) Client() *relay.Peer { return b.relay.Client }

// relay.Agent writes to the agent.
func (b *Bridge) Agent() *relay.Peer { return b.relay.Agent }

// Approvals says where the agent's own permission requests go.
func (b *Bridge) Approvals() Approvals { return b.opts.Approvals }

// Subagent says whose subagent a session is: "subagent of <task> in
// <folder>" (subagent.Register.Describe); "" for a session no
// subagent_update announced.
func (b *Bridge) Subagent(session string) string { return b.subs.Describe(session, b.SessionCwd) }

// IsSubagentUpdate is a session/update's prefilter for subagent_update
// (subagent.IsUpdate).
func IsSubagentUpdate(m *relay.Message) bool { return subagent.IsUpdate(m) }

// SessionMode is a session's mode as its agent reports it (modes.Mode).
type SessionMode = modes.Mode

// ModeChoice is one mode the agent offers (modes.Choice).
type ModeChoice = modes.Choice

// Mode is session's mode as its agent last reported it, and whether it
// reported one.
func (b *Bridge) Mode(session string) (SessionMode, bool) { return b.modes.Mode(session) }

// MarkUncontained tells the bridge, before Setup, that its agent runs
// outside askbridge's container, with the words to say (relay's
// UncontainedWarning): the agent's own permission requests then say so
// (package uncontained).
func (b *Bridge) MarkUncontained(warning string) {
	b.uncontained = warning
}
