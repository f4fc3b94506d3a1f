package permission

import (
	"encoding/json"

	acp "github.com/coder/acp-go-sdk"
)

// Approval is an agent's own permission request put on the board
// (askbridge --approvals mirror|desk): what it asks to run, and the agent's
// options. Its set has one question whose options are the agent's options
// by name, without Other; the answer is the option picked.
type Approval struct {
	// ToolCall is the tool call as the agent described it: the request's
	// toolCall merged over the tool_call and tool_call_update
	// notifications sent for its id before (kind, title, rawInput,
	// content, locations).
	ToolCall json.RawMessage  `json:"toolCall"`
	Options  []ApprovalOption `json:"options"`
}

// ApprovalOption is one of the agent's options.
type ApprovalOption struct {
	OptionID string                   `json:"optionId"`
	Name     string                   `json:"name"`
	Kind     acp.PermissionOptionKind `json:"kind"`
	// Description and Meta are the option's own, when it has them: Meta's
	// "permission" says what a lasting option grants (grants.go).
	Description string          `json:"description,omitempty"`
	Meta        json.RawMessage `json:"_meta,omitempty"`
}

// Option returns the option named name.
func (a *Approval) Option(name string) (ApprovalOption, bool) {
	for _, o := range a.Options {
		if o.Name == name {
			return o, true
		}
	}
	return ApprovalOption{}, false
}

// Reject is the option that refuses this one call (reject_once), for an
// approval nobody answered in time; ok is false when the agent offers
// none. Nothing askbridge does on its own picks an allow option.
func (a *Approval) Reject() (ApprovalOption, bool) {
	for _, o := range a.Options {
		if o.Kind == acp.PermissionOptionKindRejectOnce {
			return o, true
		}
	}
	return ApprovalOption{}, false
}
