package relay

// KeepsRequestsOpen says the peer takes no $/cancel_request (an old
// client whose ACP SDK answers it with "Method not found"): askbridge's
// requests it no longer waits for are left open there, and the late
// answer is dropped as any stray one, rather than an error shown to the
// user each time a question is answered elsewhere.
func (p *Peer) KeepsRequestsOpen(keep bool) { p.quiet.Store(keep) }

// Withdraw withdraws the request with the given id at the peer with
// $/cancel_request, and says whether it did: not for a peer that keeps
// its requests open (KeepsRequestsOpen).
func (p *Peer) Withdraw(id any) bool {
	if p.quiet.Load() {
		return false
	}
	p.Notify("$/cancel_request", map[string]any{"requestId": id})
	return true
}

// TakesCancelRequest says whether the peer is sent $/cancel_request at all
// (not KeepsRequestsOpen).
func (p *Peer) TakesCancelRequest() bool { return !p.quiet.Load() }
