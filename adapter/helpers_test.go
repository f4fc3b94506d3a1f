package adapter

import (
	"context"
	"testing"
)

var ctxCanceled = context.Canceled

func contextWithCancel(t *testing.T) (context.Context, context.CancelFunc) {
	return context.WithCancel(t.Context())
}
