package permission

import (
	"errors"
	"fmt"

	acp "github.com/coder/acp-go-sdk"
)

// By is who ends a set through the board's door (Settle, ProgressBy): a
// paired device (or the terminal inbox), by its id and name, and, for an
// approval whose answer picks a reject option, the user's reason. Route
// and Proof are what Gate weighs; a By with no Route is refused.
type By struct {
	Device string // the device's id: what a claim is compared with
	Name   string // the device's name, for Result.Device
	Reason string // the denial's reason ("Deny…"), cleaned by Typed
	Source Source // the route it came by, as the history records it (SourceDesk when empty)
	Route  Route  // the way the person answers (gate.go)
	Proof  Proof  // what that route checked of them
	// Signed, when the passkey signed the answer's statement, is its
	// proof, kept in the Result for the decisions log.
	Signed *Signed
}

// source is the route the history records: SourceDesk unless said.
func (by By) source() Source {
	if by.Source == "" {
		return SourceDesk
	}
	return by.Source
}

// ErrNotDenial is a reason given with an answer that picks no reject
// option of an approval: a reason goes only with a denial.
var ErrNotDenial = errors.New("a reason goes only with an approval's reject option")

// IsDenial says whether the option labelled label of approval a is a
// reject option (reject_once or reject_always).
func (a *Approval) IsDenial(label string) bool {
	o, ok := a.Option(label)
	if !ok {
		for _, x := range a.Options { // labelled by its id (a nameless option)
			if x.OptionID == label {
				o, ok = x, true
			}
		}
	}
	return ok && (o.Kind == acp.PermissionOptionKindRejectOnce || o.Kind == acp.PermissionOptionKindRejectAlways)
}

// Lasting says whether the option is one whose effect outlives this call
// (allow_always, reject_always).
func (o ApprovalOption) Lasting() bool {
	return o.Kind == acp.PermissionOptionKindAllowAlways || o.Kind == acp.PermissionOptionKindRejectAlways
}

// check refuses what by may not do to t: answer what Gate refuses it,
// answer while another device claims it, or give a reason with anything
// but a denial. b.mu is held.
func (by *By) check(t *Ticket, answers []Answer) error {
	if err := Gate(t.p, *by); err != nil {
		return err
	}
	if c := t.p.Claim; c.live() && c.Device != by.Device {
		return &ClaimedError{Claim: *c}
	}
	if by.Reason == "" {
		return nil
	}
	reason, err := Typed(by.Reason)
	if err != nil {
		return fmt.Errorf("reason: %w", err)
	}
	by.Reason = reason
	if t.p.Approval == nil || len(answers) != 1 || len(answers[0].Labels) != 1 || !t.p.Approval.IsDenial(answers[0].Labels[0]) {
		return ErrNotDenial
	}
	return nil
}
