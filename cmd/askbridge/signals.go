package main

import (
	"context"
	"os/signal"
)

// stopContext is ctx, cancelled when a signal asks askbridge to stop (see
// stopSignals, one list per OS): askbridge then stops the agent and exits
// instead of dying where it stands.
func stopContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(ctx, stopSignals...)
}
