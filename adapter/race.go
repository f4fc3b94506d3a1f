package adapter

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/askbridge/askbridge/adapter/asksocket"
	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/internal/notes"
	"github.com/askbridge/askbridge/permission"
)

// race puts req on the board and lets the client (flow), the desk and every
// other front end, the deadline and ctx race for it: the first to settle the
// set wins, and the others are withdrawn. flow asks the client (req with
// its deadline), with a
// context that ends as soon as anyone else settles the set (withdrawing what
// it sent); its result settles the set as the client's. race returns the
// settled ticket and whether flow settled it.
func (b *Bridge) race(ctx context.Context, req permission.Request, flow func(context.Context, permission.Request) (permission.Result, error)) (*permission.Ticket, bool) {
	req.Deadline = b.deadline(req)
	req.Context = b.context.Of(req.SessionID, req.ToolCallID)
	ticket := b.board.Open(req)
	b.logger.Info("asking", "session", req.SessionID, "round", req.Round, "questions", len(req.Questions), "ticket", ticket.ID)
	defer b.proto.WaitOnUser(ctx, b.relay, req.SessionID)()

	flowDone := b.runFlow(ticket, req, flow)
	b.await(ctx, ticket, req)
	b.conceal(ticket.Result().Secrets()...) // the reply to the agent is recorded next
	return ticket, <-flowDone
}

// runFlow runs flow for ticket on a goroutine of its own, with a context
// that ends as soon as anyone else settles the set; flow's result settles
// it as the client's. The channel says whether flow settled it.
func (b *Bridge) runFlow(ticket *permission.Ticket, req permission.Request, flow func(context.Context, permission.Request) (permission.Result, error)) <-chan bool {
	flowCtx, stopFlow := context.WithCancel(ticket.Context())
	flowDone := make(chan bool, 1)
	go func() {
		defer stopFlow()
		res, err := flow(flowCtx, req)
		switch {
		case err == nil && flowCtx.Err() == nil:
			flowDone <- b.board.Settle(ticket.ID, res, permission.ByEditor()) == nil
		case err == nil || flowCtx.Err() != nil:
			flowDone <- false // answered elsewhere or cancelled: the ticket says which
		default:
			b.logger.Warn("asking the client failed", "err", err)
			b.board.Withdraw(ticket.ID, err.Error(), permission.BySelf(permission.SourceClient))
			flowDone <- false
		}
	}()
	return flowDone
}

// await waits until the ticket is settled: by whoever settles it, by ctx
// ending (the set is cancelled with its cause), or by the deadline.
func (b *Bridge) await(ctx context.Context, ticket *permission.Ticket, req permission.Request) {
	expired := b.expired(ticket)
	select {
	case <-ticket.Done():
	case <-ctx.Done():
		if !b.keepForLater(ctx, ticket, req, expired) {
			b.board.Withdraw(ticket.ID, context.Cause(ctx).Error(), permission.BySelf(permission.SourceClient))
		}
	case <-expired:
		b.onQuestionTimeout(ticket.ID, req)
	}
	<-ticket.Done()
}

// askBoard puts a set on the board only: the desk, the hub or a deadline
// settles it; nothing is sent to the client. With round (--questions
// desk) the set is a round of its session, as a set the client is asked
// is; a set that only the desk can take (a sign-in outside a session) is
// none.
func (b *Bridge) askBoard(ctx context.Context, req permission.Request, round bool) dialect.Outcome {
	if round {
		if refused, ok := b.askRound(&req); !ok {
			return refused
		}
	}
	ticket, _ := b.race(ctx, req, func(ctx context.Context, _ permission.Request) (permission.Result, error) {
		b.watchRoutes(ctx, req) // says when nowhere can answer it
		<-ctx.Done()
		return permission.Result{}, ctx.Err()
	})
	return outcomeOf(ticket.Result())
}

// deadline is when req times out: an approval only with ApprovalTimeout,
// a question with QuestionTimeout; zero for never.
func (b *Bridge) deadline(req permission.Request) time.Time {
	d := b.opts.QuestionTimeout
	if req.Approval != nil {
		d = b.opts.ApprovalTimeout
	}
	if d <= 0 {
		return time.Time{}
	}
	return time.Now().Add(d)
}

// conceal keeps texts, typed for secret questions, out of the recording
// and every card from now on.
func (b *Bridge) conceal(texts ...string) {
	b.rec.Conceal(texts...)
	b.context.Conceal(texts...)
}

// Late answers. An agent that asks through askbridge's MCP ask tool (Gemini
// CLI, Copilot CLI) waits on a tool call its MCP host ends after a while
// (Copilot 1.0.102 after about 180 s, Gemini 0.61.0 after 600 s), and the
// model reads the host's timeout as the tool's result. The question stays
// answerable where it is shown, its card saying the agent stopped waiting;
// an answer given then reaches the model with the user's next session/prompt
// in that session, as a text block askbridge adds before the user's own,
// or, with LatePrompt, as a prompt of its own as soon as the session is idle.

// keepForLater keeps a set answerable when ctx ended because the agent
// stopped waiting for it, and reports whether it did: the card says so,
// the set waits for its answer or its deadline, and an answer goes to the
// session's late answers.
func (b *Bridge) keepForLater(ctx context.Context, ticket *permission.Ticket, req permission.Request, expired <-chan struct{}) bool {
	var sw asksocket.StoppedWaiting
	if !errors.As(context.Cause(ctx), &sw) {
		b.logger.Debug("question set ended by its asker", "ticket", ticket.ID, "why", context.Cause(ctx))
		return false
	}
	note := NoteNextPrompt
	if b.opts.LateAnswers == LatePrompt {
		note = NotePrompt
	}
	b.logger.Info("the agent stopped waiting for a question; it stays answerable, and an answer reaches the agent later",
		"ticket", ticket.ID, "session", req.SessionID, "why", sw.Reason, "late-answers", b.opts.LateAnswers)
	b.board.Note(ticket.ID, note)
	b.mu.Lock()
	b.waitingLate[ticket.ID] = struct{}{}
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		delete(b.waitingLate, ticket.ID)
		b.mu.Unlock()
	}()
	b.tellClient(req.SessionID, "askbridge: "+what(req)+": "+strings.ToLower(note[:1])+note[1:])
	select {
	case <-ticket.Done():
	case <-expired:
		b.onQuestionTimeout(ticket.ID, req)
	}
	<-ticket.Done()
	res := ticket.Result()
	if res.Cancelled || res.Source == permission.SourceTimeout {
		return true // nobody's answer: the agent has gone on already
	}
	p, _ := b.board.Get(ticket.ID)
	b.late.AddLate(req.SessionID, notes.LateLine(p.Asked, res.ModelText()), len(res.Secrets()) == 0)
	return true
}

// cancelLate ends the sets kept for a late answer: askbridge stops. Each
// is noted first as left to the hub (notes.CardLeft): the hub, told how
// it ended, keeps its card answerable and puts its answer in the notes
// store for the session's next prompt, which whichever askbridge serves
// the session then delivers.
func (b *Bridge) cancelLate(cause error) {
	b.mu.Lock()
	var ids []string
	for id := range b.waitingLate {
		ids = append(ids, id)
	}
	b.mu.Unlock()
	for _, id := range ids {
		b.board.Note(id, notes.CardLeft)
		b.board.Withdraw(id, cause.Error(), permission.BySelf(permission.SourceClient))
	}
}
