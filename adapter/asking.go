package adapter

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/permission"
)

// askClient asks a question set through the board, so that the client's
// permission requests, the desk and the timeout race, and the first answer
// wins. ctx ending first cancels the set.
func (b *Bridge) askClient(ctx context.Context, req permission.Request) dialect.Outcome {
	if refused, ok := b.askRound(&req); !ok {
		return refused
	}
	if req.ToolCallID == "" {
		req.ToolCallID, req.OwnToolCall = newToolCallID(), true
	}
	ticket, settled := b.race(ctx, req, b.askPeer)
	res := ticket.Result()
	if !settled {
		// The desk, a timeout or a cancel ended the set: show how.
		permission.Report(context.Background(), clientPeer{b.relay.Client}, req, res)
	}
	return outcomeOf(res)
}

// outcomeOf reads a settled ticket's result.
func outcomeOf(res permission.Result) dialect.Outcome {
	switch {
	case res.Cancelled && res.Reason == permission.ReasonTimeout:
		return dialect.Outcome{Status: dialect.TimedOut, Result: res}
	case res.Cancelled:
		return dialect.Outcome{Status: dialect.Cancelled, Result: res}
	}
	return dialect.Outcome{Status: dialect.Answered, Result: res}
}

// expired is closed when the ticket's deadline has passed, however often
// the desk held it off; a warning goes out shortly before. It never closes
// for a set without a deadline, or once the set is resolved.
func (b *Bridge) expired(t *permission.Ticket) <-chan struct{} {
	ch := make(chan struct{})
	if t.Deadline().IsZero() {
		return ch
	}
	warn := min(time.Minute, time.Until(t.Deadline())/4)
	go func() {
		warned := false
		for {
			left := time.Until(t.Deadline())
			if left <= 0 {
				close(ch)
				return
			}
			wait := left
			if !warned && left > warn {
				wait = left - warn
			}
			timer := time.NewTimer(wait)
			select {
			case <-t.Done():
				timer.Stop()
				return
			case <-timer.C:
			}
			if !warned && time.Until(t.Deadline()) <= warn {
				warned = true
				b.board.Expiring(t.ID)
			}
		}
	}()
	return ch
}

func (b *Bridge) onQuestionTimeout(id string, req permission.Request) {
	b.logger.Info("question timed out", "ticket", id)
	if b.opts.OnTimeout == TimeoutRecommended && req.Approval == nil { // never an automatic yes
		b.board.Settle(id, permission.Recommended(req.Questions), permission.BySelf(permission.SourceTimeout))
		return
	}
	b.board.Withdraw(id, permission.ReasonTimeout, permission.BySelf(permission.SourceTimeout))
}

// clientPeer is the client as permission.Ask sees it.
type clientPeer struct{ p *relay.Peer }

func (c clientPeer) RequestPermission(ctx context.Context, params []byte) ([]byte, error) {
	return c.p.Call(ctx, acp.ClientMethodSessionRequestPermission, json.RawMessage(params))
}

func (c clientPeer) Notify(ctx context.Context, method string, params any) error {
	return c.p.Notify(method, params)
}

// newToolCallID is a fresh id for a tool call askbridge shows itself.
func newToolCallID() string {
	b := make([]byte, 8)
	rand.Read(b)
	return "askbridge-" + hex.EncodeToString(b)
}
