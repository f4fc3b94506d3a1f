package adapter

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	acp "github.com/coder/acp-go-sdk"

	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/permission"
)

// Elicitation is the dialect of Claude Code (through claude-agent-acp) and
// any agent asking with a plain form: elicitation/create in form mode, sent
// only when the client advertised clientCapabilities.elicitation.form.
// askbridge advertises it for clients that lack it and answers the form
// itself, one permission request per field; a client that renders forms
// gets the form untouched, and the set is watched (watch.go).
type Elicitation struct{}

// Name implements Dialect.
func (*Elicitation) Name() string { return "elicitation" }

// Hooks implements Dialect.
func (*Elicitation) Hooks() []Hook {
	return []Hook{{FromAgent, acp.ClientMethodElicitationCreate}}
}

// Advertise implements Advertiser: an empty form capability object.
func (*Elicitation) Advertise() []Default {
	return []Default{{
		Path:  []string{"clientCapabilities", "elicitation", "form"},
		Value: mustJSON(acp.ElicitationFormCapabilities{}),
	}}
}

// elicitScope is what elicitation/create says beside the SDK's form type:
// the session scope (acp-go-sdk v0.13 leaves sessionId and toolCallId out
// of UnstableCreateElicitationForm) and the schema as it came, because the
// SDK's map of properties loses their order.
type elicitScope struct {
	SessionID       string          `json:"sessionId"`
	ToolCallID      string          `json:"toolCallId"`
	RequestedSchema json.RawMessage `json:"requestedSchema"`
}

// decodeElicitation reads a form elicitation's params; ok is false for
// anything a permission request could not show (a URL, say).
func decodeElicitation(m *relay.Message) (*acp.UnstableCreateElicitationForm, elicitScope, bool) {
	var req acp.UnstableCreateElicitationRequest
	var scope elicitScope
	if m.Params(&req) != nil || req.Form == nil || m.Params(&scope) != nil {
		return nil, scope, false
	}
	return req.Form, scope, true
}

// Claim implements Dialect.
func (d *Elicitation) Claim(h Host, m *relay.Message) *Claim {
	f, scope, ok := decodeElicitation(m)
	if !ok {
		return nil
	}
	return formClaim(h, d.Name(), f.Message, scope, claudeCompanion, nil)
}

// claudeCompanion: claude-agent-acp pairs question_<n> with a free-text
// question_<n>_custom.
func claudeCompanion(name string, _ *schemaProp, props map[string]*schemaProp) string {
	if base, ok := strings.CutSuffix(name, "_custom"); ok && props[base] != nil {
		return base
	}
	return ""
}

// formClaim is the claim of a form answered with permission requests. fill,
// when set, adjusts the accept content (a dialect's own encoding of Other).
func formClaim(h Host, dialect, message string, scope elicitScope, rule companionRule, fill func(*form, permission.Result, map[string]any)) *Claim {
	var f *form
	return &Claim{
		SessionID:  scope.SessionID,
		ToolCallID: scope.ToolCallID,
		Renderable: true,
		// Only after Questions, which parses the form.
		ReadResponse: func(resp json.RawMessage) permission.Result { return f.readResponse(resp) },
		Questions: func(context.Context) ([]permission.Question, error) {
			var err error
			if f, err = parseForm(message, scope.RequestedSchema, rule); err != nil {
				return nil, err
			}
			if err := f.checkLimits(h.Limits()); err != nil {
				return nil, errTooBig{err}
			}
			return f.questions, nil
		},
		Reply: func(_ context.Context, o Outcome) (any, error) {
			switch o.Status {
			case Invalid:
				if tooBig, ok := o.Err.(errTooBig); ok {
					h.Logger().Warn(dialect+": declining a form too big to ask", "err", tooBig.err)
					return elicitDecline(), nil
				}
				h.Logger().Warn(dialect+": cannot show this form", "err", o.Err)
				return nil, relay.InvalidParams("askbridge: "+o.Err.Error(), nil)
			case Refused, TimedOut:
				// Claude reads a decline as "the user did not answer" and
				// goes on; a cancel would abort its tool call.
				return elicitDecline(), nil
			case Cancelled:
				return acp.UnstableCreateElicitationResponse{Cancel: &acp.UnstableCreateElicitationCancel{Action: "cancel"}}, nil
			}
			content := f.content(o.Result)
			if fill != nil {
				fill(f, o.Result, content)
			}
			if missing := f.missing(content); len(missing) > 0 {
				h.Logger().Warn(dialect+": declining, the client cannot fill required fields", "fields", missing)
				return elicitDecline(), nil
			}
			return acp.UnstableCreateElicitationResponse{Accept: &acp.UnstableCreateElicitationAccept{Action: "accept", Content: content}}, nil
		},
	}
}

func elicitDecline() acp.UnstableCreateElicitationResponse {
	return acp.UnstableCreateElicitationResponse{Decline: &acp.UnstableCreateElicitationDecline{Action: "decline"}}
}

// errTooBig marks a form over the question limits: declined, not an error.
type errTooBig struct{ err error }

func (e errTooBig) Error() string { return fmt.Sprint(e.err) }
