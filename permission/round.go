package permission

// NextRound counts a new question set in session and returns its round
// number (from 1, across the session). ok is false when the current prompt
// turn already had max sets; max <= 0 means no limit.
func (b *Board) NextRound(session string, max int) (round int, ok bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if max > 0 && b.turn[session] >= max {
		return b.rounds[session], false
	}
	b.turn[session]++
	b.rounds[session]++
	return b.rounds[session], true
}

// ResetTurn starts a new prompt turn in session: the per-turn count of
// NextRound starts again; round numbers go on.
func (b *Board) ResetTurn(session string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.turn, session)
}
