package adapter

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/permission"
)

// intercept is the relay hook of dialect d: a message d claims is served on
// a goroutine of its own and, unless d only observes it, taken off the wire.
func (b *Bridge) intercept(d Dialect) relay.Interceptor {
	return func(m *relay.Message) relay.Verdict {
		if m.Claimed {
			return relay.Pass // an earlier dialect claimed it
		}
		c := d.Claim(b, m)
		if c == nil {
			return relay.Pass
		}
		b.forwardReason(c)
		if !b.deskOnly(c) && (c.Mirror || c.Renderable && b.ClientRendersForms()) {
			if m.ID == nil {
				return relay.Pass // nothing to answer: the client's to show
			}
			m.Claimed = true
			return b.watch(d, m, c)
		}
		if !c.Observe && m.ID == nil {
			b.logger.Warn(d.Name()+": a question sent as a notification cannot be answered; dropped it", "method", m.Method)
			return relay.Verdict{Take: true}
		}
		m = m.Clone()
		if c.Fallback && !b.deskOnly(c) {
			return relay.Verdict{OnResponse: func(resp json.RawMessage) json.RawMessage {
				if !methodNotFound(resp) {
					return nil
				}
				b.logger.Info(d.Name()+": the client does not know the method; askbridge answers it", "method", m.Method)
				b.start(d, m, c)
				return relay.Drop
			}}
		}
		if c.Observe {
			// Start once the message is out, so that what the set shows
			// the client comes after the message it observed.
			return relay.Verdict{After: func() { b.start(d, m, c) }}
		}
		// Started once what came before it is out: in a batch, the rest of
		// the batch goes on before anything the set sends.
		return relay.Verdict{Take: true, After: func() { b.start(d, m, c) }}
	}
}

// start serves a claim on a goroutine of its own and replies to the agent.
func (b *Bridge) start(d Dialect, m *relay.Message, c *Claim) {
	b.inflight.Add(1)
	go func() {
		defer b.inflight.Done()
		result, err := b.serve(context.Background(), c, m.ID)
		if m.ID != nil && !c.Observe {
			b.replyAgent(d.Name(), m.ID, result, err)
		}
	}()
}

// methodNotFound reports whether a response is the -32601 error.
func methodNotFound(resp json.RawMessage) bool {
	var r struct {
		Error *struct {
			Code int `json:"code"`
		} `json:"error"`
	}
	return json.Unmarshal(resp, &r) == nil && r.Error != nil && r.Error.Code == relay.CodeMethodNotFound
}

// serve runs a claimed set: decode and validate, ask, and make the reply.
// reqID ties the set to the agent's request, for $/cancel_request.
func (b *Bridge) serve(ctx context.Context, c *Claim, reqID json.RawMessage) (any, error) {
	ctx, stop := withdrawable(ctx, c)
	defer stop()
	ctx, done := b.begin(ctx, c.SessionID, reqID, false)
	defer done()
	qs, err := c.Questions(ctx)
	if err != nil {
		return c.Reply(context.WithoutCancel(ctx), Outcome{Status: Invalid, Err: err})
	}
	req := permission.Request{SessionID: c.SessionID, ToolCallID: c.ToolCallID, OwnToolCall: c.NewToolCall, Questions: qs, Approval: c.Approval}
	var o Outcome
	switch {
	case b.deskOnly(c):
		o = b.askBoard(ctx, req, !c.DeskOnly)
	case c.AsForm && b.ClientRendersForms():
		o = b.askForm(ctx, req)
	default:
		o = b.askClient(ctx, req)
	}
	return c.Reply(context.WithoutCancel(ctx), o)
}

// withdrawable is parent, ended when the claim's Withdrawn closes.
func withdrawable(parent context.Context, c *Claim) (context.Context, func()) {
	if c.Withdrawn == nil {
		return parent, func() {}
	}
	ctx, cancel := context.WithCancelCause(parent)
	go func() {
		select {
		case <-c.Withdrawn:
			cancel(errWithdrawn)
		case <-ctx.Done():
		}
	}()
	return ctx, func() { cancel(nil) }
}

// errWithdrawn is the cause of a set the agent withdrew (Claim.Withdrawn).
var errWithdrawn = errors.New("the agent withdrew it")

// replyAgent sends a dialect's answer to the agent's request id. An answer
// that cannot be encoded becomes a JSON-RPC error to the same id: the agent
// must never wait for a reply that was not sent.
func (b *Bridge) replyAgent(dialect string, id json.RawMessage, result any, err error) {
	if err != nil {
		var e *relay.Error
		if !errors.As(err, &e) {
			e = relay.Internal("askbridge: "+err.Error(), nil)
		}
		b.relay.Agent.ReplyError(id, e)
		return
	}
	if _, merr := json.Marshal(result); merr != nil {
		b.logger.Error(dialect+": the answer cannot be encoded; the agent gets an error instead", "err", merr)
		b.relay.Agent.ReplyError(id, relay.Internal("askbridge: the answer could not be encoded: "+merr.Error(), nil))
		return
	}
	if err := b.relay.Agent.Reply(id, result); err != nil {
		b.logger.Debug(dialect+": replying to the agent failed", "err", err)
	}
}
