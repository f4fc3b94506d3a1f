package adapter

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/internal/askwire"
	"github.com/askbridge/askbridge/permission"
)

// intercept is the relay hook of dialect d: a message d claims goes where
// its route says, and is served on a goroutine of its own.
func (b *Bridge) intercept(d dialect.Dialect) relay.Interceptor {
	return func(m *relay.Message) relay.Verdict {
		if m.Claimed {
			return relay.Pass // an earlier dialect claimed it
		}
		c := d.Claim(b, m)
		if c == nil {
			return relay.Pass
		}
		if err := check(c, m.ID != nil); err != nil {
			m.Claimed = true
			return b.refuse(d, m, err)
		}
		b.forwardReason(c)
		r := b.route(c, m.ID != nil)
		switch r.wire {
		case pass:
			return relay.Pass // nothing to answer: the client's to show
		case watch:
			m.Claimed = true
			return b.watch(d, m, c, r)
		case drop:
			b.logger.Warn(d.Name()+": a question sent as a notification cannot be answered; dropped it", "method", m.Method)
			return relay.Verdict{Take: true}
		}
		m = m.Clone()
		switch r.wire {
		case forward:
			return relay.Verdict{OnResponse: func(resp json.RawMessage) json.RawMessage {
				if !methodNotFound(resp) {
					return nil
				}
				b.logger.Info(d.Name()+": the client does not know the method; askbridge answers it", "method", m.Method)
				b.start(d, m, c, r)
				return relay.Drop
			}}
		case observe:
			// Start once the message is out, so that what the set shows
			// the client comes after the message it observed.
			return relay.Verdict{After: func() { b.start(d, m, c, r) }}
		}
		// Started once what came before it is out: in a batch, the rest of
		// the batch goes on before anything the set sends.
		return relay.Verdict{Take: true, After: func() { b.start(d, m, c, r) }}
	}
}

// refuse takes a message whose claim check refused: the agent gets an
// error for a request (it must not wait for an answer that cannot come),
// and a notification goes nowhere.
func (b *Bridge) refuse(d dialect.Dialect, m *relay.Message, err error) relay.Verdict {
	e := b.refused(d, m.Method, err)
	if m.ID == nil {
		return relay.Verdict{Take: true}
	}
	id := bytes.Clone(m.ID)
	return relay.Verdict{Take: true, After: func() {
		b.mu.Lock()
		b.finished.add(relay.IDKey(id)) // a late $/cancel_request is not the client's
		b.mu.Unlock()
		b.relay.Agent.ReplyError(id, e)
	}}
}

// refused logs why a claim was refused, and is the error the agent gets.
func (b *Bridge) refused(d dialect.Dialect, method string, err error) *relay.Error {
	b.logger.Error(d.Name()+": refused a claim its mode cannot serve", "method", method, "err", err)
	return relay.Internal("askbridge: the "+d.Name()+" dialect cannot serve "+method+": "+err.Error(), nil)
}

// start serves a claim on a goroutine of its own and replies to the agent,
// unless the dialect answers it another way.
func (b *Bridge) start(d dialect.Dialect, m *relay.Message, c *dialect.Claim, r route) {
	b.inflight.Add(1)
	go func() {
		defer b.inflight.Done()
		result, err := b.serve(context.Background(), c, r.ask, m.ID)
		if m.ID != nil && r.wire != observe {
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

// serve runs a claimed set: decode and validate, ask as the route says,
// and make the reply. reqID ties the set to the agent's request, for
// $/cancel_request.
func (b *Bridge) serve(ctx context.Context, c *dialect.Claim, how asker, reqID json.RawMessage) (any, error) {
	ctx, stop := withdrawable(ctx, c)
	defer stop()
	ctx, done := b.begin(ctx, c.SessionID, reqID, false)
	defer done()
	qs, err := c.Questions(ctx)
	if err != nil {
		return c.Reply(context.WithoutCancel(ctx), dialect.Outcome{Status: dialect.Invalid, Err: err})
	}
	req := requestOf(c, qs)
	var o dialect.Outcome
	switch how {
	case viaBoard, viaBoardAlone:
		o = b.askBoard(ctx, req, how == viaBoard)
	case viaForm:
		o = b.askForm(ctx, req)
	default:
		o = b.askClient(ctx, req)
	}
	return c.Reply(context.WithoutCancel(ctx), o)
}

// requestOf is the board's request of a claimed set whose questions are
// qs: the one place a claim becomes a set, whether askbridge asks it
// (serve) or watches the client ask it (watch.go).
func requestOf(c *dialect.Claim, qs []permission.Question) permission.Request {
	return permission.Request{SessionID: c.SessionID, ToolCallID: c.ToolCallID, OwnToolCall: c.NewToolCall, Questions: qs, Approval: c.Approval}
}

// withdrawable is parent, ended when the claim's Withdrawn closes.
func withdrawable(parent context.Context, c *dialect.Claim) (context.Context, func()) {
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

// askFromSocket serves an _askbridge/ask that came over the ask socket as
// if the agent had sent it: the dialect hooked on the method claims it.
func (b *Bridge) askFromSocket(ctx context.Context, params json.RawMessage) (any, error) {
	raw, err := json.Marshal(socketRequest{JSONRPC: "2.0", Method: askwire.Method, Params: params})
	if err != nil {
		return nil, dialect.InvalidQuestions(err)
	}
	m := &relay.Message{Method: askwire.Method, Raw: raw}
	for _, d := range b.dialects {
		for _, h := range d.Hooks() {
			if h.From != dialect.FromAgent || h.Method != askwire.Method {
				continue
			}
			if c := d.Claim(b, m); c != nil {
				if err := check(c, true); err != nil {
					return nil, b.refused(d, m.Method, err)
				}
				b.inflight.Add(1)
				defer b.inflight.Done()
				res, err := b.serve(ctx, c, b.route(c, true).ask, nil)
				if err != nil {
					return nil, dialect.InvalidQuestions(err)
				}
				return res, nil
			}
		}
	}
	return nil, &relay.Error{Code: relay.CodeMethodNotFound, Message: "askbridge: no dialect takes " + askwire.Method}
}

// socketRequest is the message an ask over the socket stands for.
type socketRequest struct {
	JSONRPC string          `json:"jsonrpc"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
}
