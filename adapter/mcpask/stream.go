package mcpask

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
)

// A tool call's HTTP stream. On MCP's 2025 protocols the SDK runs a tool
// call on its session, not on the POST that carried it: a host that drops
// that POST (its connection closes) without notifications/cancelled leaves
// the call running, and its answer would be written to a stream nobody
// reads. The ask tool counts a dropped stream as the host stopping waiting,
// as an explicit cancel is: askbridge keeps the question for a late answer.
// (On the 2026 protocol PropagateRequestCancellation does the same.)

// streamHeader carries, from ServeHTTP to the tool's handler (through the
// SDK's RequestExtra.Header), which POST a call came on. ServeHTTP sets it,
// overwriting whatever the host sent.
const streamHeader = "X-Askbridge-Stream"

// errStreamDropped is a call's cause when the host dropped its stream.
var errStreamDropped = fmt.Errorf("the host dropped the HTTP stream of the tool call without cancelling it: %w", context.Canceled)

// streams are the POSTs being served, by the id ServeHTTP gave each.
type streams struct {
	next atomic.Uint64
	mu   sync.Mutex
	open map[string]<-chan struct{}
}

// serve marks r as a stream until the returned func is called (when
// ServeHTTP returns).
func (s *streams) serve(r *http.Request) (end func()) {
	id := strconv.FormatUint(s.next.Add(1), 10)
	r.Header.Set(streamHeader, id)
	s.mu.Lock()
	if s.open == nil {
		s.open = map[string]<-chan struct{}{}
	}
	s.open[id] = r.Context().Done()
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		delete(s.open, id)
		s.mu.Unlock()
	}
}

// done is the Done channel of the POST a call with header h came on, or
// nil when there is none (stdio, or a call on no stream of ours).
func (s *streams) done(h http.Header) <-chan struct{} {
	if s == nil || h == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.open[h.Get(streamHeader)]
}

// withStream ends ctx with errStreamDropped when dropped is closed first;
// the returned func releases it.
func withStream(ctx context.Context, dropped <-chan struct{}) (context.Context, func()) {
	if dropped == nil {
		return ctx, func() {}
	}
	ctx, cancel := context.WithCancelCause(ctx)
	go func() {
		select {
		case <-dropped:
			cancel(errStreamDropped)
		case <-ctx.Done():
		}
	}()
	return ctx, func() { cancel(nil) }
}
