package dialect

import "fmt"

// Approvals says where the agent's own permission requests (those that are
// not questions) are answered.
type Approvals int

const (
	// ApprovalsClient, the zero value: in the editor only, byte for byte.
	ApprovalsClient Approvals = iota
	// ApprovalsMirror: in the editor as they are, and on the board too (the
	// desk, the hub, the notifiers); the first answer wins.
	ApprovalsMirror
	// ApprovalsDesk: on the board only, never sent to the editor (for
	// headless clients).
	ApprovalsDesk
)

// String is the flag spelling.
func (a Approvals) String() string {
	switch a {
	case ApprovalsMirror:
		return "mirror"
	case ApprovalsDesk:
		return "desk"
	}
	return "client"
}

// Set parses the flag spelling, so Approvals is a flag.Value.
func (a *Approvals) Set(s string) error {
	switch s {
	case "client", "":
		*a = ApprovalsClient
	case "mirror":
		*a = ApprovalsMirror
	case "desk":
		*a = ApprovalsDesk
	default:
		return fmt.Errorf("%q: want client, mirror or desk", s)
	}
	return nil
}
