package desk

import (
	"net/http"

	"github.com/askbridge/askbridge/permission"
)

// inboxDevice is the terminal inbox as a claimant: it has no paired
// device, and the hub vouches for it (LocalHandler).
var inboxDevice = permission.By{Device: "inbox", Name: "the terminal inbox"}

// by is who makes r, as the board's gate weighs it (permission.Gate): the
// terminal inbox with what its listener vouched (permission.Vouch), or the
// page from a paired device, with the user's leave to approve without a
// passkey when the device was paired so. A passkey's presence is added
// only once checked (presence.go), when the gate asks for it.
func by(r *http.Request, reason string) permission.By {
	if Local(r) {
		b := inboxDevice
		b.Reason, b.Route, b.Proof = reason, permission.RouteInbox, vouched(r)
		return b
	}
	dev := device(r)
	name := dev.Name
	if name == "" {
		name = dev.ID
	}
	b := permission.By{Device: dev.ID, Name: name, Reason: reason, Route: permission.RoutePage}
	if dev.ID != "" {
		b.Proof = permission.ProofDevice
	}
	if dev.ID != "" && dev.Passkey == nil && dev.NoPasskeyApprovals {
		b.Proof |= permission.ProofLeave
	}
	return b
}
