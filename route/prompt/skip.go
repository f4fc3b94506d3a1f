package prompt

// SkipOnEsc has the help line and the settled question say "skip" where
// Esc does not cancel but leaves the question for later (the inbox). The
// prompt still returns ErrCancelled; what a skip means is the caller's.
func (t *TTY) SkipOnEsc() *TTY {
	t.skip = true
	return t
}

// escWord is what Esc and Ctrl-C do, in the help line.
func (t *TTY) escWord() string {
	if t.skip {
		return "skip"
	}
	return "cancel"
}
