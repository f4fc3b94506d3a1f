package prompt

import (
	"context"
	"errors"
)

// Withdrawn is the cause a caller ends a prompt's context with
// (context.WithCancelCause) when it knows why the question went: the
// terminal then says that ("answered on the hub's page (iPhone)") where it
// would guess "answered elsewhere, or the turn was cancelled".
type Withdrawn struct {
	Why string // what became of it, as a clause: "answered on the hub's page"
}

func (w *Withdrawn) Error() string { return "withdrawn: " + w.Why }

// withdrawnLine is what the terminal says of a question ctx withdrew.
func withdrawnLine(ctx context.Context) string {
	var w *Withdrawn
	if errors.As(context.Cause(ctx), &w) && w.Why != "" {
		return w.Why
	}
	return "withdrawn (answered elsewhere, or the turn was cancelled)"
}
