package permission

import (
	"context"
	"log/slog"
	"sync"
)

// setBacklog is how many events of one set wait for a slow watcher before
// the newer ones merge: its asked event stays, the latest state replaces
// the intermediate ones (a follow-up step, a hold, a warning), its final
// event is always delivered.
const setBacklog = 8

// watchBuffer is how many events wait in a watcher's channel, there to
// read at once when publish returns; more wait in its queue.
const watchBuffer = 64

// Subscribe returns the board's events until ctx ends. The board never
// waits on a watcher, and a watcher never loses a set's change: what it
// has not read yet waits per set, and a watcher that fell behind reads
// each set's latest state (its snapshot) after the set's asked event,
// the intermediate events merged. The merges are counted in one log line
// (SetLogger) once the watcher has caught up.
func (b *Board) Subscribe(ctx context.Context) <-chan Event {
	w := &watcher{last: map[string]int{}, count: map[string]int{}, wake: make(chan struct{}, 1), out: make(chan Event, watchBuffer)}
	b.mu.Lock()
	b.watchers[w] = struct{}{}
	b.mu.Unlock()
	go func() {
		w.run(ctx)
		b.mu.Lock()
		delete(b.watchers, w)
		b.mu.Unlock()
		close(w.out) // no put after the watcher left the board
	}()
	return w.out
}

// SetLogger names where a watcher that fell behind says how many events
// it merged; nil (the default) says nothing.
func (b *Board) SetLogger(l *slog.Logger) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.logger = l
}

// publish hands an event, the set with its origin, to every watcher;
// b.mu is held. It never blocks.
func (b *Board) publish(typ EventType, p Pending) {
	p = b.described(p)
	for w := range b.watchers {
		w.put(Event{Type: typ, Pending: p}, b.logger)
	}
}

// watcher is one subscription: the events it has not read, in the order
// they came; each set's last one is where a merge goes.
type watcher struct {
	mu     sync.Mutex
	queue  []Event
	head   int            // the absolute index of queue[0]
	last   map[string]int // set id -> the absolute index of its last event waiting
	count  map[string]int // set id -> its events waiting
	merged int
	// sending: run has an event in hand, outside the queue; until it is
	// sent, put must queue rather than send, to keep the order.
	sending bool
	logger  *slog.Logger
	wake    chan struct{}
	out     chan Event
}

// final reports whether ev ends its set.
func final(ev Event) bool { return ev.Type.Final() }

// opening reports whether ev is the asked event a set starts with.
func opening(ev Event) bool { return ev.Type == EventAsked && ev.Pending.Step == 0 }

func (w *watcher) put(ev Event, logger *slog.Logger) {
	id := ev.Pending.ID
	w.mu.Lock()
	w.logger = logger
	if len(w.queue) == 0 && !w.sending {
		select {
		case w.out <- ev: // nothing waits before it: straight to the channel
			w.mu.Unlock()
			return
		default:
		}
	}
	if w.count[id] >= setBacklog {
		if i := w.last[id] - w.head; !opening(w.queue[i]) && !final(w.queue[i]) {
			w.queue[i] = ev // the latest state wins
			w.merged++
			w.mu.Unlock()
			return
		}
	}
	w.queue = append(w.queue, ev)
	w.last[id] = w.head + len(w.queue) - 1
	w.count[id]++
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// next takes the oldest event waiting; ok is false when none is.
func (w *watcher) next() (ev Event, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.queue) == 0 {
		if w.merged > 0 && w.logger != nil {
			w.logger.Warn("board: a watcher fell behind; it read the latest state of some sets instead of every step", "merged", w.merged)
		}
		w.merged = 0
		w.queue = nil // let the array go
		return Event{}, false
	}
	ev = w.queue[0]
	w.sending = true
	w.queue[0] = Event{}
	w.queue, w.head = w.queue[1:], w.head+1
	id := ev.Pending.ID
	if w.count[id]--; w.count[id] == 0 {
		delete(w.count, id)
		delete(w.last, id)
	}
	return ev, true
}

// run hands the events waiting to out until ctx ends.
func (w *watcher) run(ctx context.Context) {
	for {
		ev, ok := w.next()
		if !ok {
			select {
			case <-w.wake:
				continue
			case <-ctx.Done():
				return
			}
		}
		select {
		case w.out <- ev:
		case <-ctx.Done():
			return
		}
		w.mu.Lock()
		w.sending = false
		w.mu.Unlock()
	}
}
