package claude

import (
	"strings"

	acp "github.com/coder/acp-go-sdk"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/relay"
)

// Elicitation is the dialect of Claude Code (through claude-agent-acp) and
// any agent asking with a plain form: elicitation/create in form mode, sent
// only when the client advertised clientCapabilities.elicitation.form.
// askbridge advertises it for clients that lack it and answers the form
// itself, one permission request per field; a client that renders forms
// gets the form untouched, and the set is watched (adapter/watch.go).
type Elicitation struct{}

// Name implements Dialect.
func (*Elicitation) Name() string { return "elicitation" }

// Hooks implements Dialect.
func (*Elicitation) Hooks() []dialect.Hook {
	return []dialect.Hook{{From: dialect.FromAgent, Method: acp.ClientMethodElicitationCreate}}
}

// Advertise implements Advertiser: an empty form capability object.
func (*Elicitation) Advertise() []dialect.Default { return dialect.AdvertiseForms() }

// Claim implements Dialect.
func (d *Elicitation) Claim(h dialect.Host, m *relay.Message) *dialect.Claim {
	f, scope, ok := dialect.DecodeElicitation(m)
	if !ok {
		return nil
	}
	return dialect.FormClaim(h, d.Name(), f.Message, scope, claudeCompanion, nil)
}

// claudeCompanion: claude-agent-acp pairs question_<n> with a free-text
// question_<n>_custom.
func claudeCompanion(name string, _ *dialect.SchemaProp, props map[string]*dialect.SchemaProp) string {
	if base, ok := strings.CutSuffix(name, "_custom"); ok && props[base] != nil {
		return base
	}
	return ""
}
