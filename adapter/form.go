package adapter

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	acp "github.com/coder/acp-go-sdk"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/permission"
)

// askForm asks a question set as one form elicitation, for a client that
// renders forms: the shape claude-agent-acp uses, question_<n> with a
// question_<n>_custom free-text companion. The set is on the board as any
// other: the desk, the notifiers and the deadline see it, and an answer
// elsewhere withdraws the form.
func (b *Bridge) askForm(ctx context.Context, req permission.Request) dialect.Outcome {
	if refused, ok := b.askRound(&req); !ok {
		return refused
	}
	ticket, _ := b.race(ctx, req, func(ctx context.Context, req permission.Request) (permission.Result, error) {
		return b.formFlow(ctx, req), nil
	})
	return outcomeOf(ticket.Result())
}

// formFlow asks the client with one form and reads its answer; a failure
// or a form not accepted cancels the set.
func (b *Bridge) formFlow(ctx context.Context, req permission.Request) permission.Result {
	raw, err := b.relay.Client.Call(ctx, acp.ClientMethodElicitationCreate, formRequest(req))
	if err != nil {
		reason := err.Error()
		if ctx.Err() != nil {
			reason = context.Cause(ctx).Error()
		} else {
			b.logger.Warn("asking the client with a form failed", "err", err)
		}
		return permission.Result{Cancelled: true, Reason: reason}
	}
	var resp acp.UnstableCreateElicitationResponse
	if err := json.Unmarshal(raw, &resp); err != nil {
		b.logger.Warn("elicitation/create result", "err", err)
		return permission.Result{Cancelled: true, Reason: "unreadable form answer"}
	}
	if resp.Accept == nil {
		return permission.Result{Cancelled: true, Reason: "the user did not accept the form"}
	}
	var res permission.Result
	for i, q := range req.Questions {
		var a permission.Answer
		key := fmt.Sprintf("question_%d", i)
		switch v := resp.Accept.Content[key].(type) {
		case string:
			if v != "" {
				a.Labels = []string{v}
			}
		case []any:
			for _, l := range v {
				if s, ok := l.(string); ok {
					a.Labels = append(a.Labels, s)
				}
			}
		}
		if custom, ok := resp.Accept.Content[key+"_custom"].(string); ok && strings.TrimSpace(custom) != "" {
			a.Other, a.Custom = true, strings.TrimSpace(custom)
			if err := q.Kind.Check(a.Custom); err != nil { // one form, not asked again
				return permission.Result{Cancelled: true, Reason: err.Error()}
			}
		}
		res.Answers = append(res.Answers, permission.Answered{Question: q, Answer: a, Index: i, Path: fmt.Sprintf("questions[%d]", i)})
	}
	return res
}

// formParams are elicitation/create's params: the SDK's form plus the
// session scope acp-go-sdk v0.13 leaves out of it.
type formParams struct {
	acp.UnstableCreateElicitationForm
	SessionID  string `json:"sessionId"`
	ToolCallID string `json:"toolCallId,omitempty"`
}

// choiceField is a property of askbridge's own form: a single choice, a
// multiple choice (Items), or free text (neither OneOf nor Items).
type choiceField struct {
	Type        string         `json:"type"`
	Title       string         `json:"title"`
	Description string         `json:"description"`
	OneOf       []schemaChoice `json:"oneOf,omitempty"`
	Items       *choiceItems   `json:"items,omitempty"`
}

type choiceItems struct {
	AnyOf []schemaChoice `json:"anyOf"`
}

type schemaChoice struct {
	Const       string `json:"const"`
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
}

// formRequest is the elicitation/create params for a question set. The
// properties' keys sort in the order they are asked, which is the order
// the SDK's map marshals them in.
func formRequest(req permission.Request) formParams {
	props := make(map[string]any, 2*len(req.Questions))
	for i, q := range req.Questions {
		var opts []schemaChoice
		for _, o := range q.Options {
			opts = append(opts, schemaChoice{Const: o.Label, Title: o.Label, Description: o.Description})
		}
		key := fmt.Sprintf("question_%d", i)
		field := choiceField{Type: "string", Title: q.Header, Description: q.Question, OneOf: opts}
		if q.Kind.Many {
			field = choiceField{Type: "array", Title: q.Header, Description: q.Question, Items: &choiceItems{AnyOf: opts}}
		}
		props[key] = field
		props[key+"_custom"] = choiceField{Type: "string", Title: "Other", Description: "Type your own answer (optional)."}
		if q.Kind.Hint != "" {
			props[key+"_custom"] = choiceField{Type: "string", Title: "Other", Description: "Type " + q.Kind.Hint + " (optional)."}
		}
	}
	message := "Please answer the following questions."
	if len(req.Questions) == 1 {
		message = req.Questions[0].Question
	}
	return formParams{
		UnstableCreateElicitationForm: acp.UnstableCreateElicitationForm{
			Mode:            "form",
			Message:         message,
			RequestedSchema: acp.UnstableElicitationSchema{Type: acp.UnstableElicitationSchemaTypeObject, Properties: props},
		},
		SessionID:  req.SessionID,
		ToolCallID: req.ToolCallID,
	}
}
