package hub

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/askbridge/askbridge/permission"
)

// Retry is how long an askbridge waits between looks for a hub that is not
// there.
const Retry = time.Second

// Reporter is an askbridge reporting to the hub (Report).
type Reporter struct {
	mu        sync.Mutex
	me        Instance
	changed   chan struct{} // the hub is told me again
	connected atomic.Bool
}

// Connected reports whether a hub is connected now: a question can be
// answered there.
func (r *Reporter) Connected() bool { return r != nil && r.connected.Load() }

// Update changes what the hub is told about this askbridge (the agent's
// name once initialize says it, a session's folder). It never waits.
func (r *Reporter) Update(fn func(*Instance)) {
	r.mu.Lock()
	fn(&r.me)
	r.mu.Unlock()
	select {
	case r.changed <- struct{}{}:
	default:
	}
}

// hello sends the hub who this askbridge is.
func (r *Reporter) hello(l *link) {
	r.mu.Lock()
	defer r.mu.Unlock()
	l.send(message{Type: msgHello, Instance: &r.me})
}

// Report tells the hub on the socket at path about board's sets, and puts
// the hub's answers on board, for as long as ctx lasts: connecting when a
// hub is there, again within Retry when it comes, goes or restarts. It
// returns at once; nothing it does waits on the relay, nor the relay on it.
func Report(ctx context.Context, board *permission.Board, path string, me Instance, logger *slog.Logger) *Reporter {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	rep := &Reporter{me: me, changed: make(chan struct{}, 1)}
	go func() {
		absent := false
		for ctx.Err() == nil {
			c, err := dialHub(ctx, path, logger)
			if err != nil {
				if !absent {
					logger.Debug("hub: none on the socket; looking again every second", "path", path, "err", err)
					absent = true
				}
			} else {
				absent = false
				logger.Debug("hub: connected", "path", path)
				rep.connected.Store(true)
				rep.session(ctx, c, board, logger)
				rep.connected.Store(false)
				logger.Debug("hub: disconnected", "path", path)
			}
			select {
			case <-ctx.Done():
			case <-time.After(Retry):
			}
		}
	}()
	return rep
}

// session is one connection to the hub: hello, every pending set, then the
// board's changes as they come, until the hub goes. When the link's queue
// is full (the hub reads slower than the board changes) the changes are
// not queued but reconciled once there is room: the hub is told every
// pending set it was not told of, and the end of every set it was told of
// that is no longer pending. The hub so never lists an answered set as
// pending, however many end at once.
func (r *Reporter) session(ctx context.Context, c net.Conn, board *permission.Board, logger *slog.Logger) {
	l := newLink(ctx, c)
	defer l.cancel()
	// Subscribed before listing: no set falls between the two (the hub
	// ignores a set it has already).
	events := board.Subscribe(l.ctx)
	r.hello(l)
	t := &teller{l: l, board: board, told: map[string]bool{}}
	t.reconcile()
	go l.read(func(m message) { apply(t, board, m, logger) })
	retry := time.NewTicker(reconcileRetry)
	defer retry.Stop()
	for {
		select {
		case <-r.changed:
			r.hello(l)
		case <-retry.C:
			if t.isBehind() && t.reconcile() {
				logger.Info("hub: caught up with the board after the link's queue was full")
			}
		case ev, ok := <-events:
			if !ok {
				return
			}
			t.event(ev)
		}
	}
}

// reconcileRetry is how often a reporter whose link was full looks again.
const reconcileRetry = 50 * time.Millisecond

// teller tells the hub the board's sets over one link, and remembers which
// it told as pending.
type teller struct {
	mu     sync.Mutex // session's goroutine and the link's reader
	l      *link
	board  *permission.Board
	told   map[string]bool // sets the hub was told are pending
	behind bool            // the link was full: reconcile before any event
}

// event tells the hub one change, unless the teller is behind: then the
// next reconcile does.
func (t *teller) event(ev permission.Event) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.behind {
		return
	}
	p := ev.Pending
	switch ev.Type {
	case permission.EventAsked:
		if !t.told[p.ID] && t.offer(message{Type: msgAsked, Set: &p}) {
			t.told[p.ID] = true
		}
	case permission.EventNoted:
		if t.told[p.ID] {
			t.offer(message{Type: msgNoted, Set: &p})
		}
	case permission.EventReplied, permission.EventRejected:
		if t.told[p.ID] && t.offer(message{Type: msgEnded, Set: &p}) {
			delete(t.told, p.ID)
		}
	}
}

// reconcile tells the hub what it lacks: the pending sets it was not told
// of, the end of those it was told of that ended. It reports whether all
// went out.
func (t *teller) reconcile() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.behind = false
	pending := map[string]bool{}
	for _, p := range t.board.List() {
		pending[p.ID] = true
		if !t.told[p.ID] {
			if !t.offer(message{Type: msgAsked, Set: &p}) {
				return false
			}
			t.told[p.ID] = true
		}
	}
	for id := range t.told {
		if pending[id] {
			continue
		}
		p, ok := t.board.Get(id)
		if !ok {
			continue
		}
		if !t.offer(message{Type: msgEnded, Set: &p}) {
			return false
		}
		delete(t.told, id)
	}
	return true
}

// isBehind reports whether a reconcile is due.
func (t *teller) isBehind() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.behind
}

// ended has the hub told again how set id ended (it answered a set that
// ended here): by the next reconcile, never by a send that could find the
// link full.
func (t *teller) ended(id string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.told[id], t.behind = true, true
}

// offer queues m unless the link's queue is full; then the teller is
// behind, and nothing more is queued until reconcile. t.mu is held.
func (t *teller) offer(m message) bool {
	b, err := json.Marshal(m)
	if err != nil {
		return true // cannot be told at all; it is not worth a retry
	}
	select {
	case t.l.out <- append(b, '\n'):
		return true
	default:
		t.behind = true
		return false
	}
}

// apply puts what the hub says on the board, as any other front end's
// answer: the first wins. A set the hub still shows but that is over here
// is told to the hub again, in case its end was missed.
func apply(t *teller, board *permission.Board, m message, logger *slog.Logger) {
	var err error
	switch {
	case m.Type == msgAnswer && m.Result != nil && m.Result.Cancelled:
		err = board.Withdraw(m.ID, m.Result.Reason, hubBy(*m.Result))
	case m.Type == msgAnswer && m.Result != nil:
		r := *m.Result
		r.Source = fromHub(r.Source)
		err = board.Settle(m.ID, r, hubBy(r))
	case m.Type == msgHold && m.Until != nil:
		_, err = board.Hold(m.ID, time.Until(*m.Until))
	case m.Type == msgSetMode && m.By != nil:
		by := *m.By
		by.Source = permission.SourceHub
		err = board.RequestMode(m.ID, m.Mode, by)
		logger.Info("hub: "+m.Type, "id", m.ID, "mode", m.Mode, "device", by.Name, "err", err)
		return
	default:
		return
	}
	logger.Info("hub: "+m.Type, "id", m.ID, "err", err)
	switch {
	case errors.Is(err, permission.ErrResolved):
		t.ended(m.ID)
	case errors.Is(err, permission.ErrUnknown):
		gone := permission.Pending{ID: m.ID, State: permission.StateCancelled, Result: &permission.Result{Cancelled: true, Reason: "unknown at the askbridge"}}
		t.mu.Lock()
		t.offer(message{Type: msgEnded, Set: &gone}) // a full link: the hub lists it until the askbridge leaves
		t.mu.Unlock()
	}
}

// hubBy is who ends a set with the hub's result r, as the board's gate
// weighs it: the link proved the hub's key (dial), and r carries what the
// hub's own route checked of the person (a page's passkey, a device's or
// the inbox's leave), without which the gate here refuses an approval.
func hubBy(r permission.Result) permission.By {
	return permission.By{Route: permission.RouteHub, Proof: r.Proof | permission.ProofHubKey, Name: r.Device, Source: fromHub(r.Source)}
}
