package notify

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/askbridge/askbridge/internal/answertoken"
	"github.com/askbridge/askbridge/permission"
)

// DefaultTimeout bounds one delivery: a hook run, a notifier, a POST.
const DefaultTimeout = 30 * time.Second

// closeGrace is how long Close lets deliveries in flight finish (the
// "cancelled" of a set ended by askbridge's own exit) before stopping them.
const closeGrace = 2 * time.Second

// Options say which consumers run. The zero value runs none.
type Options struct {
	Hook    string // --on-question: run through sh -c for every event
	Desktop bool   // --notify: a desktop notification when a set is asked
	URL     string // --notify-url: POST every event (see Webhook)
	// DeskURL is the answer desk's page, when the desk is on. Whatever
	// query, fragment or user it has is dropped (pageLink): notifications
	// carry the page's address, never a credential.
	DeskURL string
	// PublicURL (--public-url) and Taps give the ntfy-style webhook its
	// answer buttons: they post a token Taps signed to PublicURL's tap
	// route. Either unset: no buttons.
	PublicURL string
	Taps      *answertoken.Key
	Timeout   time.Duration // per delivery; 0 means DefaultTimeout
	Logger    *slog.Logger  // nil discards
}

// Notifier delivers a board's events to the consumers Options name.
type Notifier struct {
	opts   Options
	log    *slog.Logger
	sinks  []*lanes
	stop   context.CancelFunc // ends the subscription
	ctx    context.Context    // ends deliveries in flight
	cancel context.CancelFunc
	loop   chan struct{} // closed when the subscription is drained
	wg     sync.WaitGroup
	once   sync.Once
}

// Active reports whether any consumer hears of the board's events.
func (n *Notifier) Active() bool { return len(n.sinks) > 0 }

// sink is one consumer.
type sink interface {
	name() string
	wants(Event) bool
	deliver(context.Context, Event) error
}

// Start subscribes to board and delivers its events until Close. It fails
// only on options that make no sense (a webhook URL that is not one); a
// consumer that cannot work (no desktop notifier) is logged and left out.
func Start(board *permission.Board, opts Options) (*Notifier, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	opts.DeskURL = pageLink(opts.DeskURL)
	n := &Notifier{opts: opts, log: opts.Logger, loop: make(chan struct{})}
	if opts.Hook != "" {
		n.add(&hook{cmd: opts.Hook, log: n.log})
	}
	if opts.Desktop {
		if d := findDesktop(n.log); d != nil {
			n.add(d)
		}
	}
	if opts.URL != "" {
		w, err := NewWebhook(opts.URL)
		if err != nil {
			return nil, err
		}
		w.Buttons(opts.PublicURL, opts.Taps)
		if !w.json && (opts.PublicURL == "" || opts.Taps == nil) {
			n.log.Info(PublicURLNote)
		}
		n.add(w)
	}
	n.ctx, n.cancel = context.WithCancel(context.Background())
	var sub context.Context
	sub, n.stop = context.WithCancel(context.Background())
	if len(n.sinks) == 0 {
		close(n.loop) // nothing to tell: no watcher on the board
		return n, nil
	}
	events := board.Subscribe(sub)
	go func() {
		defer close(n.loop)
		for ev := range events {
			if ev.Type == permission.EventHeld || ev.Type == permission.EventNoted || ev.Type == permission.EventOrigin {
				continue // a moved deadline, a card's note or origin: the desk's business
			}
			n.dispatch(fromBoard(ev, opts.DeskURL, time.Now()))
		}
	}()
	return n, nil
}

func (n *Notifier) add(s sink) {
	n.sinks = append(n.sinks, newLanes(n, s))
}

// dispatch hands ev to every consumer that wants it without waiting for
// any of them: the board's stream must never back up.
func (n *Notifier) dispatch(ev Event) {
	for _, l := range n.sinks {
		if l.s.wants(ev) {
			l.push(ev)
		}
	}
}

// Close stops taking events, lets deliveries in flight finish for a moment,
// then stops them (killing hooks still running) and waits.
func (n *Notifier) Close() { n.once.Do(n.close) }

func (n *Notifier) close() {
	n.stop()
	<-n.loop
	done := make(chan struct{})
	go func() { n.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(closeGrace):
	}
	n.cancel()
	<-done
}
