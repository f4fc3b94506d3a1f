package approvals

import (
	"context"
	"encoding/json"

	acp "github.com/coder/acp-go-sdk"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/permission"
)

// Dialect puts the agent's own permission requests — "Allow
// `rm -rf build`?", "Apply this edit?" — on the board, where the desk, the
// hub and the notifiers can answer them (Options.Approvals): mirrored (the
// editor gets the request as it is, and the first answer wins) or on the
// board only. It comes last in the table: a request another dialect claims
// (Qwen's questions, the MCP ask tool's own approval) never reaches it.
// Nothing here answers by itself but a timeout, and that as reject_once.
type Dialect struct {
	calls toolCalls
}

// Name implements Dialect.
func (*Dialect) Name() string { return "approvals" }

// Hooks implements Dialect.
func (*Dialect) Hooks() []dialect.Hook {
	return []dialect.Hook{{From: dialect.FromAgent, Method: acp.ClientMethodSessionRequestPermission}}
}

// Rewrites implements Rewriter: with approvals on the board, the tool
// calls the agent announces are remembered, to show what a request allows.
func (d *Dialect) Rewrites(h dialect.Host) []dialect.Rewrite {
	if h.Approvals() == dialect.ApprovalsClient {
		return nil
	}
	return []dialect.Rewrite{{Hook: dialect.Hook{From: dialect.FromAgent, Method: acp.ClientMethodSessionUpdate, Updates: []string{"tool_call", "tool_call_update"}}, Intercept: func(m *relay.Message) relay.Verdict {
		if k := m.UpdateKind(); string(k) == "tool_call" || string(k) == "tool_call_update" {
			d.calls.note(m)
		}
		return relay.Pass
	}}}
}

// approvalRequest is the part of session/request_permission read here:
// v1's toolCall, or v2's title and subject {type: "tool_call", toolCall}.
type approvalRequest struct {
	SessionID string                      `json:"sessionId"`
	ToolCall  map[string]json.RawMessage  `json:"toolCall"`
	Options   []permission.ApprovalOption `json:"options"`
	Title     string                      `json:"title"`
	Subject   struct {
		ToolCall map[string]json.RawMessage `json:"toolCall"`
	} `json:"subject"`
}

// toolCall is the request's tool call as known (what the notifications
// said, the request's own fields over it), v1's or v2's; a v2 request's own
// title stands in where the tool call has none.
func (p *approvalRequest) toolCall(calls *toolCalls) json.RawMessage {
	tc := p.ToolCall
	if tc == nil {
		tc = p.Subject.ToolCall
	}
	merged := calls.merged(p.SessionID, tc)
	var has struct {
		Title string `json:"title"`
	}
	if json.Unmarshal(merged, &has) == nil && has.Title == "" && p.Title != "" {
		var m map[string]json.RawMessage
		json.Unmarshal(merged, &m)
		m["title"] = dialect.MustJSON(p.Title)
		merged = dialect.MustJSON(m)
	}
	return merged
}

// Claim implements Dialect.
func (d *Dialect) Claim(h dialect.Host, m *relay.Message) *dialect.Claim {
	mode := h.Approvals()
	if mode == dialect.ApprovalsClient || m.ID == nil {
		return nil
	}
	var p approvalRequest
	if m.Params(&p) != nil || len(p.Options) == 0 {
		return nil
	}
	a := &permission.Approval{ToolCall: p.toolCall(&d.calls), Options: p.Options}
	q, byLabel := approvalQuestion(a)
	var call struct {
		ToolCallID string `json:"toolCallId"`
	}
	json.Unmarshal(a.ToolCall, &call)
	return &dialect.Claim{
		SessionID:  p.SessionID,
		ToolCallID: call.ToolCallID,
		Mode:       claimMode(mode),
		Approval:   a,
		Questions:  func(context.Context) ([]permission.Question, error) { return []permission.Question{q}, nil },
		ReadResponse: func(resp json.RawMessage) permission.Result {
			return readApproval(resp, q, a, byLabel)
		},
		Reply: func(_ context.Context, o dialect.Outcome) (any, error) {
			return approvalReply(o, a, byLabel), nil
		},
	}
}

// claimMode is how --approvals asks an approval: mirror watches the
// editor's copy, desk keeps it from the editor.
func claimMode(a dialect.Approvals) dialect.Mode {
	switch a {
	case dialect.ApprovalsMirror:
		return dialect.Mirror
	case dialect.ApprovalsDesk:
		return dialect.Board
	}
	return dialect.Ask
}

// approvalQuestion is the approval as one question: the tool call's title,
// the agent's options by name (lasting ones said so), no Other. byLabel
// maps each label to its option (a nameless or repeated name is labelled
// by its optionId).
func approvalQuestion(a *permission.Approval) (permission.Question, map[string]permission.ApprovalOption) {
	var tc struct {
		Title string `json:"title"`
		Kind  string `json:"kind"`
	}
	json.Unmarshal(a.ToolCall, &tc)
	q := permission.Question{Header: "Approval", Question: tc.Title, Kind: permission.Fixed}
	if q.Question == "" {
		q.Question = "Allow this tool call?"
	}
	if tc.Kind != "" {
		q.Header = "Approval: " + tc.Kind
	}
	byLabel := map[string]permission.ApprovalOption{}
	for _, o := range a.Options {
		label := o.Name
		if _, taken := byLabel[label]; label == "" || taken {
			label = o.OptionID
		}
		byLabel[label] = o
		// Lasting ones say so, and what they change (permission.Grant).
		desc := o.Grant().Text(o.Kind)
		q.Options = append(q.Options, permission.Option{Label: label, Description: desc})
	}
	return q, byLabel
}

// readApproval reads the editor's response as the set's result.
func readApproval(resp json.RawMessage, q permission.Question, a *permission.Approval, byLabel map[string]permission.ApprovalOption) permission.Result {
	var r struct {
		Result *struct {
			Outcome struct {
				Outcome  string `json:"outcome"`
				OptionID string `json:"optionId"`
			} `json:"outcome"`
		} `json:"result"`
	}
	if json.Unmarshal(resp, &r) != nil || r.Result == nil || r.Result.Outcome.Outcome != "selected" {
		return permission.Result{Cancelled: true, Reason: "dismissed in the editor"}
	}
	for label, o := range byLabel {
		if o.OptionID == r.Result.Outcome.OptionID {
			return permission.Result{Answers: []permission.Answered{{Question: q, Answer: permission.Answer{Labels: []string{label}}, Path: "questions[0]"}}}
		}
	}
	return permission.Result{Cancelled: true, Reason: "the editor picked an option the agent did not offer"}
}

// approvalReply is the agent's answer: the option picked, the agent's
// reject_once when nobody answered in time, else cancelled.
func approvalReply(o dialect.Outcome, a *permission.Approval, byLabel map[string]permission.ApprovalOption) acp.RequestPermissionResponse {
	cancelled := acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeCancelled()}
	switch o.Status {
	case dialect.Answered:
		if len(o.Result.Answers) == 1 && len(o.Result.Answers[0].Answer.Labels) == 1 {
			if opt, ok := byLabel[o.Result.Answers[0].Answer.Labels[0]]; ok {
				return acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeSelected(acp.PermissionOptionId(opt.OptionID))}
			}
		}
	case dialect.TimedOut:
		if opt, ok := a.Reject(); ok {
			return acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeSelected(acp.PermissionOptionId(opt.OptionID))}
		}
	}
	return cancelled
}
