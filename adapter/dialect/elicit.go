package dialect

import (
	"context"
	"encoding/json"
	"fmt"

	acp "github.com/coder/acp-go-sdk"

	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/permission"
)

// AdvertiseForms is what a form-asking agent needs in the client's
// initialize before it asks at all: an empty form capability object.
func AdvertiseForms() []Default {
	return []Default{{
		Path:  []string{"clientCapabilities", "elicitation", "form"},
		Value: MustJSON(acp.ElicitationFormCapabilities{}),
	}}
}

// ElicitScope is what elicitation/create says beside the SDK's form type:
// the session scope (acp-go-sdk v0.13 leaves sessionId and toolCallId out
// of UnstableCreateElicitationForm) and the schema as it came, because the
// SDK's map of properties loses their order.
type ElicitScope struct {
	SessionID       string          `json:"sessionId"`
	ToolCallID      string          `json:"toolCallId"`
	RequestedSchema json.RawMessage `json:"requestedSchema"`
}

// DecodeElicitation reads a form elicitation's params; ok is false for
// anything a permission request could not show (a URL, say).
func DecodeElicitation(m *relay.Message) (*acp.UnstableCreateElicitationForm, ElicitScope, bool) {
	var req acp.UnstableCreateElicitationRequest
	var scope ElicitScope
	if m.Params(&req) != nil || req.Form == nil || m.Params(&scope) != nil {
		return nil, scope, false
	}
	return req.Form, scope, true
}

// FormClaim is the claim of a form answered with permission requests. fill,
// when set, adjusts the accept content (a dialect's own encoding of Other).
func FormClaim(h Host, dialect, message string, scope ElicitScope, rule CompanionRule, fill func(*Form, permission.Result, map[string]any)) *Claim {
	var f *Form
	return &Claim{
		SessionID:  scope.SessionID,
		ToolCallID: scope.ToolCallID,
		Mode:       Render,
		// Only after Questions, which parses the form.
		ReadResponse: func(resp json.RawMessage) permission.Result { return f.readResponse(resp) },
		Questions: func(context.Context) ([]permission.Question, error) {
			var err error
			if f, err = ParseForm(message, scope.RequestedSchema, rule); err != nil {
				return nil, err
			}
			if err := f.checkLimits(h.Limits()); err != nil {
				return nil, errTooBig{err}
			}
			return f.Questions, nil
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
			content := f.Content(o.Result)
			if fill != nil {
				fill(f, o.Result, content)
			}
			if missing := f.Missing(content); len(missing) > 0 {
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
