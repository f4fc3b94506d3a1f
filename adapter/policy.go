package adapter

import "fmt"

// Render says how questions reach the client.
type Render int

const (
	// RenderAuto, the zero value, passes forms through to a client that
	// renders them, and asks every other client with permission requests.
	RenderAuto Render = iota
	// RenderPermission always asks with permission requests.
	RenderPermission
	// RenderYesNo asks each question as a walk of yes/no permission
	// requests, for a client that can only say yes or no (permission/yesno.go).
	RenderYesNo
)

// OnTimeout says what a question set that nobody answered in time becomes.
type OnTimeout int

const (
	// TimeoutEnd, the zero value, ends the set: the agent gets its
	// dialect's answer for a timeout (Status TimedOut).
	TimeoutEnd OnTimeout = iota
	// TimeoutRecommended answers each question with its option whose label
	// ends in "(Recommended)", else its first.
	TimeoutRecommended
)

// String is the flag spelling: "auto", "permission" or "yesno".
func (r Render) String() string {
	switch r {
	case RenderPermission:
		return "permission"
	case RenderYesNo:
		return "yesno"
	}
	return "auto"
}

// Set parses the flag spelling, so a Render is a flag.Value.
func (r *Render) Set(s string) error {
	switch s {
	case "auto", "":
		*r = RenderAuto
	case "permission":
		*r = RenderPermission
	case "yesno":
		*r = RenderYesNo
	default:
		return fmt.Errorf("%q: want auto, permission or yesno", s)
	}
	return nil
}

// String is the flag spelling: "cancel" or "recommended".
func (o OnTimeout) String() string {
	if o == TimeoutRecommended {
		return "recommended"
	}
	return "cancel"
}

// Set parses the flag spelling, so an OnTimeout is a flag.Value. "cancel"
// is kept as the name of TimeoutEnd for the flags that said it before.
func (o *OnTimeout) Set(s string) error {
	switch s {
	case "cancel", "end", "":
		*o = TimeoutEnd
	case "recommended":
		*o = TimeoutRecommended
	default:
		return fmt.Errorf("%q: want cancel or recommended", s)
	}
	return nil
}

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
