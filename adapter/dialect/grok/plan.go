package grok

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/permission"
)

// Grok's plan approval: leaving plan mode, Grok sends the blocking request
// _x.ai/exit_plan_mode {sessionId, toolCallId, planContent}, answered
// {outcome:"approved"}, {outcome:"request_changes", feedback} or
// {outcome:"abandoned", feedback?}. The clients that implement it disagree
// on the words (one answers "accepted"/"rejected"); these are the ones the
// most complete of them types. Like a question, the request goes to the
// client first and askbridge serves it on -32601.
const (
	ExitPlanMode     = "_x.ai/exit_plan_mode"
	exitPlanModeBare = "x.ai/exit_plan_mode"
)

// The plan's two options; Other's text is the changes asked for.
const (
	approve = "Approve"
	revise  = "Request changes"
)

// PlanTimeoutFeedback is what Grok's model reads when nobody reviewed its
// plan in time.
const PlanTimeoutFeedback = "The user did not review the plan in time, so it is not approved. Do not start on it; ask again in the chat."

type planRequest struct {
	SessionID   string          `json:"sessionId"`
	ToolCallID  string          `json:"toolCallId"`
	PlanContent string          `json:"planContent"`
	Params      json.RawMessage `json:"params"`
}

type planOutcome struct {
	Outcome  string `json:"outcome"`
	Feedback string `json:"feedback,omitempty"`
}

// planClaim shows the plan as one question, never a form: a form would
// repeat the plan as its message and its field.
func (d *Dialect) planClaim(h dialect.Host, m *relay.Message) *dialect.Claim {
	var p planRequest
	parseErr := m.Params(&p)
	if parseErr == nil && len(p.Params) > 0 && p.SessionID == "" {
		parseErr = json.Unmarshal(p.Params, &p)
	}
	session := h.ActiveSession(p.SessionID)
	q := permission.Question{Question: strings.TrimSpace(p.PlanContent), Header: "Plan", Options: []permission.Option{
		{Label: approve, Description: "leave plan mode and start on this plan"},
		{Label: revise, Description: "stay in plan mode; say what to change with Other"},
	}}
	return &dialect.Claim{
		SessionID:    session,
		ToolCallID:   p.ToolCallID,
		Mode:         dialect.Extension,
		ReadResponse: func(resp json.RawMessage) permission.Result { return readPlan(q, resp) },
		Questions: func(context.Context) ([]permission.Question, error) {
			switch {
			case parseErr != nil:
				return nil, relay.InvalidParams("askbridge: "+ExitPlanMode+" params: "+parseErr.Error(), nil)
			case q.Question == "":
				q.Question = "Grok wants to leave plan mode; it sent no plan."
			}
			if session == "" {
				return nil, dialect.ErrNoSession()
			}
			return []permission.Question{q}, nil
		},
		Reply: func(_ context.Context, o dialect.Outcome) (any, error) {
			switch o.Status {
			case dialect.Invalid:
				h.Logger().Warn("grok: plan rejected", "err", o.Err)
				return nil, o.Err
			case dialect.Cancelled:
				return planOutcome{Outcome: "abandoned"}, nil
			case dialect.TimedOut:
				return planOutcome{Outcome: "request_changes", Feedback: PlanTimeoutFeedback}, nil
			case dialect.Refused:
				return planOutcome{Outcome: "request_changes", Feedback: o.Message}, nil
			}
			var a permission.Answer
			if len(o.Result.Answers) > 0 {
				a = o.Result.Answers[0].Answer
			}
			switch {
			case a.Other:
				return planOutcome{Outcome: "request_changes", Feedback: a.Text()}, nil
			case len(a.Labels) == 1 && a.Labels[0] == approve:
				return planOutcome{Outcome: "approved"}, nil
			}
			return planOutcome{Outcome: "request_changes", Feedback: "Please revise the plan."}, nil
		},
	}
}

// readPlan is the client's own answer to the plan, for the board.
func readPlan(q permission.Question, resp json.RawMessage) permission.Result {
	var r struct {
		Result *planOutcome `json:"result"`
	}
	if json.Unmarshal(resp, &r) != nil || r.Result == nil {
		return permission.Result{Cancelled: true, Reason: "no answer from the editor"}
	}
	var a permission.Answer
	switch r.Result.Outcome {
	case "approved", "accepted":
		a.Labels = []string{approve}
	case "abandoned", "cancelled":
		return permission.Result{Cancelled: true, Reason: r.Result.Outcome + " in the editor"}
	default:
		a = permission.Answer{Labels: []string{revise}}
		if r.Result.Feedback != "" {
			a = permission.Answer{Other: true, Custom: r.Result.Feedback}
		}
	}
	return permission.Result{Answers: []permission.Answered{{Question: q, Answer: a, Index: 0, Path: "plan"}}}
}
