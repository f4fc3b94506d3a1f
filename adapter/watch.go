package adapter

import (
	"context"
	"encoding/json"
	"slices"
	"sync"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/permission"
)

// A watched request (route's watch: a form the client renders itself, a
// request mirrored to it, an agent's extension request) goes to the client
// byte for byte, and is watched: its questions are on the board, so the
// desk lists them, the notifiers hear of them and --question-timeout ends
// them. The first answer wins, both ways:
//   - the client answers first: its response goes to the agent as it came,
//     and the board records the answer as the client's;
//   - the desk, or the deadline, first: askbridge replies to the agent with
//     the dialect's Reply, withdraws the client's copy with
//     $/cancel_request, and drops the client's late response;
//   - the agent withdraws the request ($/cancel_request), or the session is
//     cancelled, or askbridge stops: the set leaves the board, and what the
//     client then answers goes on to the agent.
//
// An extension request (dialect.Extension, dialect.ExtensionForm) is one
// the client may not know: its -32601 is one more way to answer, "ask it
// yourself". askbridge then asks the same set as serve would (permission
// requests, or one form), on the ticket already on the board: the set is
// listed once, keeps its deadline, and the first answer still wins.

// watched is one watched request: what it is, set before it is shared,
// and its state, shared by the relay's reading goroutine (the client's
// response) and the set's own.
type watched struct {
	d dialect.Dialect
	m *relay.Message // a clone: the set's goroutine outlives the relay's
	c *dialect.Claim
	r route

	mu        sync.Mutex
	ticket    *permission.Ticket                      // nil until the set is on the board
	read      func(json.RawMessage) permission.Result // reads the client's response
	early     json.RawMessage                         // the client's response, before the set was on the board
	clientWon bool                                    // the client's response went to the agent
	declined  bool                                    // the client does not know the method: askbridge asks
	replied   bool                                    // askbridge answered the agent itself
	withdrawn bool                                    // the agent or the session withdrew the request
	heard     chan struct{}                           // closed once the client responded (or declined)
	closed    bool                                    // heard is closed
}

// hear marks the client's response as come; w.mu is held.
func (w *watched) hear() {
	if !w.closed {
		w.closed = true
		close(w.heard)
	}
}

// watch forwards a watched request to the client and watches it.
func (b *Bridge) watch(d dialect.Dialect, m *relay.Message, c *dialect.Claim, r route) relay.Verdict {
	w := &watched{d: d, m: m.Clone(), c: c, r: r, heard: make(chan struct{})}
	return relay.Verdict{
		OnResponse: func(resp json.RawMessage) json.RawMessage { return b.clientAnswered(w, resp) },
		After:      func() { b.startWatch(w) },
	}
}

// clientAnswered decides, on the client's reading goroutine, whether the
// client's response goes to the agent (nil) or is dropped (relay.Drop): it is
// dropped when askbridge answered the agent, or is about to, or is to ask
// the set itself because the client does not know the method.
func (b *Bridge) clientAnswered(w *watched, resp json.RawMessage) json.RawMessage {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.replied:
		b.logger.Debug("dropped the editor's late answer to a question answered elsewhere")
		return relay.Drop
	case w.withdrawn:
		return nil
	case w.r.decline && methodNotFound(resp):
		w.declined = true
		w.hear()
		return relay.Drop
	case w.ticket == nil:
		w.early, w.clientWon = resp, true
		w.hear()
		return nil
	}
	defer w.hear()
	if err := b.board.Settle(w.ticket.ID, w.read(resp), permission.ByEditor()); err != nil {
		// The desk or the deadline settled it first: the set's goroutine
		// answers the agent.
		b.logger.Debug("dropped the editor's answer to a question settled elsewhere", "ticket", w.ticket.ID)
		return relay.Drop
	}
	w.clientWon = true
	return nil
}

// startWatch puts the set's questions on the board and, when anyone but
// the client settles them, answers the agent and withdraws the client's
// copy; or, when the client declines the request, asks the set itself.
func (b *Bridge) startWatch(w *watched) {
	b.inflight.Add(1)
	go func() {
		defer b.inflight.Done()
		parent, stop := withdrawable(context.Background(), w.c)
		defer stop()
		ctx, done := b.begin(parent, w.c.SessionID, w.m.ID, true)
		defer done()
		req, ok := b.watchedRequest(ctx, w)
		if !ok {
			return
		}
		t := b.openWatched(w, req)
		if t == nil {
			return
		}
		flowDone, report := b.awaitWatched(ctx, w, t, &req)
		b.settleWatched(ctx, w, t, req, flowDone, report)
	}()
}

// watchedRequest decodes the set and takes its round. ok is false when the
// set is not to be on the board: its questions are invalid, or the turn
// asked too often (an extension request then waits for the client).
func (b *Bridge) watchedRequest(ctx context.Context, w *watched) (req permission.Request, ok bool) {
	c := w.c
	qs, err := c.Questions(ctx)
	if err != nil {
		if w.r.decline {
			b.unwatched(ctx, w, dialect.Outcome{Status: dialect.Invalid, Err: err})
			return req, false
		}
		b.logger.Info(w.d.Name()+": the editor shows a form askbridge cannot read as questions; not on the desk", "err", err)
		return req, false
	}
	req = requestOf(c, qs)
	if c.Approval == nil { // an approval is no round of questions
		max := 0
		if w.r.decline { // askbridge may have to ask it: it counts
			max = b.opts.MaxRounds
		}
		if refused, ok := b.nextRound(&req, max); !ok {
			b.unwatched(ctx, w, refused)
			return req, false
		}
	}
	req.Deadline = b.deadline(req)
	return req, true
}

// openWatched puts req on the board and returns its ticket; nil when the
// client answered before, which the board then records as the client's.
func (b *Bridge) openWatched(w *watched, req permission.Request) *permission.Ticket {
	read := func(resp json.RawMessage) permission.Result { return askedAs(w.c.ReadResponse(resp), req.Questions) }
	req.Context = b.context.Of(req.SessionID, req.ToolCallID)
	w.mu.Lock()
	t := b.board.Open(req)
	if w.clientWon {
		b.board.Settle(t.ID, read(w.early), permission.ByEditor())
		w.mu.Unlock()
		return nil
	}
	w.ticket, w.read = t, read
	w.mu.Unlock()
	b.logger.Info("watching a question the editor shows", "session", req.SessionID, "round", req.Round, "questions", len(req.Questions), "ticket", t.ID)
	return t
}

// awaitWatched waits for the watched set to end: the client answers (or
// declines, and askbridge asks it: flowDone), the desk or the deadline
// settle it, or it is withdrawn. report says the client is to be shown how
// askbridge's own asking ended, when someone else settles it.
func (b *Bridge) awaitWatched(ctx context.Context, w *watched, t *permission.Ticket, req *permission.Request) (flowDone <-chan bool, report bool) {
	heard, expired := w.heard, b.expired(t)
	for {
		select {
		case <-t.Done():
			return flowDone, report
		case <-heard:
			heard = nil
			w.mu.Lock()
			declined := w.declined
			w.mu.Unlock()
			if declined {
				b.logger.Info(w.d.Name()+": the client does not know the method; askbridge asks instead", "method", w.m.Method, "ticket", t.ID)
				var flow func(context.Context, permission.Request) (permission.Result, error)
				flow, report = b.instead(w.r.ask, req)
				flowDone = b.runFlow(t, *req, flow)
			}
		case <-ctx.Done():
			w.mu.Lock()
			w.withdrawn = !w.declined // a declined set is askbridge's to answer
			w.mu.Unlock()
			b.board.Withdraw(t.ID, context.Cause(ctx).Error(), permission.BySelf(permission.SourceClient))
			return flowDone, report
		case <-expired:
			b.onQuestionTimeout(t.ID, *req)
			return flowDone, report
		}
	}
}

// settleWatched, once the set is settled, answers the agent when the
// answer is askbridge's to give (not the client's, not withdrawn).
func (b *Bridge) settleWatched(ctx context.Context, w *watched, t *permission.Ticket, req permission.Request, flowDone <-chan bool, report bool) {
	<-t.Done()
	w.mu.Lock()
	mine := !w.clientWon && !w.withdrawn
	w.replied = mine
	declined := w.declined
	w.mu.Unlock()
	if !mine {
		return
	}
	res := t.Result()
	b.conceal(res.Secrets()...)
	switch {
	case flowDone != nil:
		if !<-flowDone && report {
			// The desk, a timeout or a cancel ended the set: show how.
			permission.Report(context.Background(), clientPeer{b.relay.Client}, req, res)
		}
	case !declined:
		// Withdrawn first: what the agent does with the answer comes after.
		b.relay.Client.Withdraw(w.m.ID)
	}
	result, err := w.c.Reply(context.WithoutCancel(ctx), outcomeOf(res))
	b.replyAgent(w.d.Name(), w.m.ID, result, err)
	b.logger.Info("answered a question the editor was shown from elsewhere", "ticket", t.ID, "source", res.Source)
}

// instead is how askbridge asks a set the client declined, as serve would
// (the route's asker): one form to a client that renders forms, else
// permission requests (on a tool call of askbridge's own when the agent
// named none). report says the client is to be shown how the set ended
// when someone else settles it.
func (b *Bridge) instead(how asker, req *permission.Request) (flow func(context.Context, permission.Request) (permission.Result, error), report bool) {
	if how == viaForm {
		return func(ctx context.Context, req permission.Request) (permission.Result, error) {
			return b.formFlow(ctx, req), nil
		}, false
	}
	if req.ToolCallID == "" {
		req.ToolCallID, req.OwnToolCall = newToolCallID(), true
	}
	return b.askPeer, true
}

// unwatched waits for the client's response to a request whose set is not
// on the board (its questions are invalid, or the turn asked too often):
// if the client declines it, the agent gets the dialect's reply to o.
func (b *Bridge) unwatched(ctx context.Context, w *watched, o dialect.Outcome) {
	select {
	case <-w.heard:
	case <-ctx.Done():
	}
	w.mu.Lock()
	declined := w.declined
	w.withdrawn = !declined
	w.mu.Unlock()
	if !declined {
		return
	}
	if o.Status == dialect.Refused {
		b.tellRoundLimit(w.c.SessionID)
	}
	result, err := w.c.Reply(context.WithoutCancel(ctx), o)
	b.replyAgent(w.d.Name(), w.m.ID, result, err)
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
