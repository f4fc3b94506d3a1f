package adapter

import (
	"context"
	"encoding/json"
	"slices"
	"sync"

	"github.com/askbridge/askbridge/permission"
)

// A form the client renders itself (Claim.Renderable, to a client that
// renders forms) goes to the client byte for byte, and is watched: its
// questions are on the board, so the desk lists them, the notifiers hear of
// them and --question-timeout ends them. The first answer wins, both ways:
//   - the client answers first: its response goes to the agent as it came,
//     and the board records the answer as the client's;
//   - the desk, or the deadline, first: askbridge replies to the agent with
//     the form's own content (the dialect's Reply), withdraws the client's
//     copy with $/cancel_request, and drops the client's late response;
//   - the agent withdraws the form ($/cancel_request), or the session is
//     cancelled, or askbridge stops: the set leaves the board, and what the
//     client then answers goes on to the agent.

// watched is the state of one watched form, shared by the relay's reading
// goroutine (the client's response) and the set's own.
type watched struct {
	mu        sync.Mutex
	ticket    *permission.Ticket                      // nil until the set is on the board
	read      func(json.RawMessage) permission.Result // reads the client's response
	early     json.RawMessage                         // the client's response, before the set was on the board
	clientWon bool                                    // the client's response went to the agent
	replied   bool                                    // askbridge answered the agent itself
	withdrawn bool                                    // the agent or the session withdrew the form
}

// watch forwards a renderable form to the client and watches it.
func (b *Bridge) watch(d Dialect, m *Message, c *Claim) Verdict {
	w := &watched{}
	m = m.Clone()
	return Verdict{
		OnResponse: func(resp json.RawMessage) json.RawMessage { return b.clientAnswered(w, resp) },
		After:      func() { b.startWatch(d, m, c, w) },
	}
}

// clientAnswered decides, on the client's reading goroutine, whether the
// client's response goes to the agent (nil) or is dropped (Drop): it is
// dropped only when askbridge answered the agent, or is about to.
func (b *Bridge) clientAnswered(w *watched, resp json.RawMessage) json.RawMessage {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.replied:
		b.logger.Debug("dropped the editor's late answer to a form answered elsewhere")
		return Drop
	case w.withdrawn:
		return nil
	case w.ticket == nil:
		w.early, w.clientWon = resp, true
		return nil
	}
	if err := b.board.Answer(w.ticket.ID, w.read(resp)); err != nil {
		// The desk or the deadline settled it first: the set's goroutine
		// answers the agent.
		b.logger.Debug("dropped the editor's answer to a form settled elsewhere", "ticket", w.ticket.ID)
		return Drop
	}
	w.clientWon = true
	return nil
}

// startWatch puts the form's questions on the board and, when anyone but
// the client settles them, answers the agent and withdraws the client's form.
func (b *Bridge) startWatch(d Dialect, m *Message, c *Claim, w *watched) {
	b.inflight.Add(1)
	go func() {
		defer b.inflight.Done()
		ctx, done := b.begin(context.Background(), c.SessionID, m.ID, true)
		defer done()
		qs, err := c.Questions(ctx)
		if err != nil {
			b.logger.Info(d.Name()+": the editor shows a form askbridge cannot read as questions; not on the desk", "err", err)
			return
		}
		req := permission.Request{SessionID: c.SessionID, ToolCallID: c.ToolCallID, Questions: qs, Approval: c.Approval}
		if c.Approval == nil { // an approval is no round of questions
			req.Round, _ = b.board.NextRound(c.SessionID, 0)
		}
		req.Deadline = b.deadline(req)
		read := func(resp json.RawMessage) permission.Result { return askedAs(c.ReadResponse(resp), qs) }

		w.mu.Lock()
		t := b.board.Open(req)
		if w.clientWon {
			b.board.Answer(t.ID, read(w.early))
			w.mu.Unlock()
			return
		}
		w.ticket, w.read = t, read
		w.mu.Unlock()
		b.logger.Info("watching a form the editor shows", "session", req.SessionID, "round", req.Round, "questions", len(qs), "ticket", t.ID)

		select {
		case <-t.Done():
		case <-ctx.Done():
			w.mu.Lock()
			w.withdrawn = true
			w.mu.Unlock()
			b.board.Cancel(t.ID, context.Cause(ctx).Error())
		case <-b.expired(t):
			b.onQuestionTimeout(t.ID, req)
		}
		<-t.Done()
		w.mu.Lock()
		mine := !w.clientWon && !w.withdrawn
		w.replied = mine
		w.mu.Unlock()
		if !mine {
			return
		}
		res := t.Result()
		b.relay.Conceal(res.Secrets()...)
		// Withdrawn first: what the agent does with the answer comes after.
		b.relay.Client.Notify(cancelRequestMethod, cancelRequest{RequestID: m.ID})
		result, err := c.Reply(context.WithoutCancel(ctx), outcomeOf(res))
		b.replyAgent(d.Name(), m.ID, result, err)
		b.logger.Info("answered a form the editor shows from elsewhere; withdrew the editor's copy", "ticket", t.ID, "source", res.Source)
	}()
}

// cancelRequest is $/cancel_request's params.
type cancelRequest struct {
	RequestID json.RawMessage `json:"requestId"`
}

// askedAs puts the questions as asked (a dialect may reshape the form's)
// in a result read from the form, keeping only labels they offer.
func askedAs(res permission.Result, qs []permission.Question) permission.Result {
	for i := range res.Answers {
		if i >= len(qs) {
			break
		}
		q := qs[i]
		res.Answers[i].Question = q
		a := &res.Answers[i].Answer
		a.Labels = slices.DeleteFunc(a.Labels, func(l string) bool {
			return !slices.ContainsFunc(q.Options, func(o permission.Option) bool { return o.Label == l })
		})
	}
	return res
}
