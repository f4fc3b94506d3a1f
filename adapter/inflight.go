package adapter

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/askbridge/askbridge/adapter/relay"
)

// The question sets in flight: each is registered by its session and the
// agent request that started it, so that session/cancel, the agent's
// $/cancel_request and shutdown end it.

// cancelRequestMethod is ACP's $/cancel_request, which acp-go-sdk has no
// constant for.
const cancelRequestMethod = "$/cancel_request"

// ask is one question set in flight.
type ask struct {
	session string
	cancel  context.CancelCauseFunc
	watched bool // the client shows it itself (watch.go)
}

// onSessionCancel ends the session's sets once session/cancel is on its
// way to the agent: the agent hears the cancel before the answers it
// cancels ("cancelled" to its pending requests), as ACP has a client do,
// and in that order every time (the fixtures' want-agent sections).
func (b *Bridge) onSessionCancel(m *relay.Message) relay.Verdict {
	var p sessionRef
	if m.Params(&p) != nil {
		return relay.Pass
	}
	return relay.Verdict{After: func() { b.cancelSession(p.SessionID, errors.New("session/cancel")) }}
}

// onAgentCancelRequest ends the question set behind an agent request the
// bridge took; a cancel for anything else goes on to the client.
func (b *Bridge) onAgentCancelRequest(m *relay.Message) relay.Verdict {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if m.Params(&p) != nil || p.RequestID == nil {
		return relay.Pass
	}
	b.mu.Lock()
	a := b.byRequest[relay.IDKey(p.RequestID)]
	answered := b.finished.has(relay.IDKey(p.RequestID))
	b.mu.Unlock()
	if a == nil && answered {
		// Late: the bridge answered that request already, and the client
		// never saw its id.
		b.logger.Debug("dropped the agent's cancel of a request askbridge answered", "requestId", string(p.RequestID))
		return relay.Verdict{Take: true}
	}
	if a == nil {
		return b.cancelToClient(p.RequestID)
	}
	a.cancel(errors.New("the agent cancelled the request"))
	if a.watched {
		return b.cancelToClient(p.RequestID) // the client shows the form: it withdraws it
	}
	return relay.Verdict{Take: true}
}

// begin registers a question set of session, started by the agent request
// reqID (nil when it came another way), and returns its context; watched
// says the client shows the set itself.
func (b *Bridge) begin(parent context.Context, session string, reqID json.RawMessage, watched bool) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	a := &ask{session: session, cancel: cancel, watched: watched}
	b.mu.Lock()
	if b.asks[session] == nil {
		b.asks[session] = map[*ask]struct{}{}
	}
	b.asks[session][a] = struct{}{}
	if reqID != nil {
		b.byRequest[relay.IDKey(reqID)] = a
	}
	b.mu.Unlock()
	return ctx, func() {
		b.mu.Lock()
		delete(b.asks[session], a)
		if len(b.asks[session]) == 0 {
			delete(b.asks, session)
		}
		if reqID != nil {
			delete(b.byRequest, relay.IDKey(reqID))
			b.finished.add(relay.IDKey(reqID))
		}
		b.mu.Unlock()
		cancel(nil)
	}
}

func (b *Bridge) cancelSession(session string, cause error) {
	b.mu.Lock()
	var list []*ask
	for a := range b.asks[session] {
		list = append(list, a)
	}
	b.mu.Unlock()
	for _, a := range list {
		a.cancel(cause)
	}
}

func (b *Bridge) cancelAll(cause error) {
	b.mu.Lock()
	var list []*ask
	for _, set := range b.asks {
		for a := range set {
			list = append(list, a)
		}
	}
	b.mu.Unlock()
	for _, a := range list {
		a.cancel(cause)
	}
}

// errShutdown is the cause of the question sets askbridge ends as it stops.
var errShutdown = errors.New("askbridge is shutting down")
