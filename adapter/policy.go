package adapter

import (
	"fmt"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/nextprompt"
	"github.com/askbridge/askbridge/internal/notes"
)

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
// not questions) are answered; dialects read it through their Host.
type Approvals = dialect.Approvals

const (
	ApprovalsClient = dialect.ApprovalsClient
	ApprovalsMirror = dialect.ApprovalsMirror
	ApprovalsDesk   = dialect.ApprovalsDesk
)

// LateAnswers says how an answer given after the agent stopped waiting
// reaches it (package nextprompt).
type LateAnswers = nextprompt.Late

const (
	// LateNextPrompt, the zero value: with the user's next prompt.
	LateNextPrompt = nextprompt.WithPrompt
	// LatePrompt: as a prompt of its own, once no turn runs in the session.
	LatePrompt = nextprompt.AsPrompt
)

// What the card says once the agent stopped waiting.
const (
	NoteNextPrompt = notes.CardNextPrompt
	NotePrompt     = notes.CardPrompt
)
