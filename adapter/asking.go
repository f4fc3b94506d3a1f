package adapter

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
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

// tellClient shows the client, in session, what askbridge adds to the
// conversation: as agent text, the update every ACP client renders during
// a turn (a user_message_chunk is meant for replaying a loaded session, and
// several clients show none while a turn runs).
func (b *Bridge) tellClient(session, text string) {
	b.relay.Client.Notify(acp.ClientMethodSessionUpdate, acp.SessionNotification{
		SessionId: acp.SessionId(session),
		Update:    acp.UpdateAgentMessageText(text + "\n\n"),
	})
}

// Notes for the next prompt. Some things the model should read arrive
// when no tool call of its is open to carry them: ACP's permission
// response has no field for a denial's reason, so a reason typed with
// "Deny…" reaches the model as a text block askbridge adds first to the
// user's next session/prompt in that session (the convention Zed's own
// agent uses: a message typed while an approval waits is the user's next
// message), and the client is told at once, in the session, what will be
// added. Anything else that must reach the model later can go there too
// (NextPrompt). Each is kept in the notes store too (package nextprompt),
// so a new askbridge serving the session hands it on if this one is gone.

// NextPrompt queues text for the model, with the user's next prompt in
// session (package nextprompt): the same queue as the session's late
// answers, so one rewrite of the prompt carries both, notes first.
func (b *Bridge) NextPrompt(session, text string) { b.late.Note(session, text) }

// forwardReason makes an approval's denial with a reason reach the model:
// the agent gets its reject option as always (c.Reply), and the reason
// waits for the next prompt, the client told.
func (b *Bridge) forwardReason(c *dialect.Claim) {
	reply := c.Reply
	if reply == nil || c.Approval == nil {
		return
	}
	a, session := c.Approval, c.SessionID
	c.Reply = func(ctx context.Context, o dialect.Outcome) (any, error) {
		if o.Status == dialect.Answered && o.Result.DenyReason != "" {
			b.denied(session, a, o.Result)
		}
		return reply(ctx, o)
	}
}

// denied queues a denial's reason for session's next prompt.
func (b *Bridge) denied(session string, a *permission.Approval, r permission.Result) {
	var tc struct {
		Title string `json:"title"`
	}
	json.Unmarshal(a.ToolCall, &tc)
	what := strings.TrimSpace(tc.Title)
	if what == "" {
		what = "a tool call"
	}
	b.NextPrompt(session, DenialNote(what, r.DenyReason))
	b.relay.Client.Notify(acp.ClientMethodSessionUpdate, acp.SessionNotification{
		SessionId: acp.SessionId(session),
		Update: acp.UpdateAgentMessageText(fmt.Sprintf("askbridge: you denied %q, saying: %q. The agent got its reject option; your reason goes to it with your next prompt.\n\n",
			what, r.DenyReason)),
	})
}

// DenialNote is what the model reads of a denial with a reason.
func DenialNote(what, reason string) string {
	return fmt.Sprintf("[askbridge] The user denied your request to run %q, and said why: %q. Take that into account.", what, reason)
}
