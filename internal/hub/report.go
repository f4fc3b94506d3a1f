package hub

import (
	"context"
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
	mu      sync.Mutex
	me      Instance
	changed chan struct{} // the hub is told me again
	up      atomic.Bool   // connected to the hub
}

// Connected reports whether the askbridge is connected to the hub now.
func (r *Reporter) Connected() bool { return r != nil && r.up.Load() }

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
			c, err := net.DialTimeout("unix", path, Retry)
			if err != nil {
				if !absent {
					logger.Debug("hub: none on the socket; looking again every second", "path", path, "err", err)
					absent = true
				}
			} else {
				absent = false
				logger.Debug("hub: connected", "path", path)
				rep.up.Store(true)
				rep.session(ctx, c, board, logger)
				rep.up.Store(false)
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
// board's changes as they come, until the hub goes or falls behind.
func (r *Reporter) session(ctx context.Context, c net.Conn, board *permission.Board, logger *slog.Logger) {
	l := newLink(ctx, c)
	defer l.cancel()
	// Subscribed before listing: no set falls between the two (the hub
	// ignores a set it has already).
	events := board.Subscribe(l.ctx)
	r.hello(l)
	for _, p := range board.List() {
		l.send(message{Type: msgAsked, Set: &p})
	}
	go l.read(func(m message) { apply(l, board, m, logger) })
	for {
		select {
		case <-r.changed:
			r.hello(l)
		case ev, ok := <-events:
			if !ok {
				return
			}
			p := ev.Pending
			switch ev.Type {
			case permission.EventAsked:
				l.send(message{Type: msgAsked, Set: &p})
			case permission.EventReplied, permission.EventRejected:
				l.send(message{Type: msgEnded, Set: &p})
			}
		}
	}
}

// apply puts what the hub says on the board, as any other front end's
// answer: the first wins. A set the hub still shows but that is over here
// is told to the hub again, in case its end was missed.
func apply(l *link, board *permission.Board, m message, logger *slog.Logger) {
	var err error
	switch {
	case m.Type == msgAnswer && m.Result != nil && m.Result.Cancelled:
		err = board.CancelFrom(m.ID, permission.SourceHub, m.Result.Reason)
	case m.Type == msgAnswer && m.Result != nil:
		r := *m.Result
		r.Source = permission.SourceHub
		err = board.Answer(m.ID, r)
	case m.Type == msgHold && m.Until != nil:
		_, err = board.Hold(m.ID, time.Until(*m.Until))
	default:
		return
	}
	logger.Info("hub: "+m.Type, "id", m.ID, "err", err)
	switch {
	case errors.Is(err, permission.ErrResolved):
		if p, ok := board.Get(m.ID); ok {
			l.send(message{Type: msgEnded, Set: &p})
		}
	case errors.Is(err, permission.ErrUnknown):
		gone := permission.Pending{ID: m.ID, State: permission.StateCancelled, Result: &permission.Result{Cancelled: true, Reason: "unknown at the askbridge"}}
		l.send(message{Type: msgEnded, Set: &gone})
	}
}
