package notify

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"time"
)

// limited is a consumer that bounds its deliveries: at most running at
// once, at most queued events waiting for their turn. Other consumers are
// not bounded.
type limited interface {
	limits() (running, queued int)
}

// lanes runs one consumer: one lane per question set, so that a set's
// events arrive in order while sets do not wait for each other, except for
// a turn when the consumer is limited.
type lanes struct {
	n    *Notifier
	s    sink
	mu   sync.Mutex
	byID map[string]*lane

	turns     chan struct{} // a token per delivery running; nil: unbounded
	maxQueued int           // 0: unbounded
	queued    int           // events in the lanes, not yet running
	merged    int           // events merged since the queue was last empty
	dropped   int           // events dropped since the queue was last empty
}

type lane struct{ queue []Event }

func newLanes(n *Notifier, s sink) *lanes {
	l := &lanes{n: n, s: s, byID: map[string]*lane{}}
	if lim, ok := s.(limited); ok {
		running, queued := lim.limits()
		l.turns, l.maxQueued = make(chan struct{}, running), queued
	}
	return l
}

// push queues ev on its set's lane. A limited consumer whose queue is full
// still gets every set's asked event and its final one: an event between
// them (a follow-up step, a warning) replaces the lane's last waiting one
// of its kind, or is dropped when there is none; each is counted, and told
// in one line once the queue has drained.
func (l *lanes) push(ev Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	ln, ok := l.byID[ev.ID]
	if l.maxQueued > 0 && l.queued >= l.maxQueued && !(ev.base() == Asked && !ok) {
		last := -1
		if ok && len(ln.queue) > 1 && !ln.queue[len(ln.queue)-1].ends() { // the first, the set's asked, stays
			last = len(ln.queue) - 1
		}
		switch {
		case last >= 0:
			ln.queue[last] = ev // the latest state wins
			l.merged++
			return
		case !ev.ends():
			l.dropped++
			return
		}
	}
	l.queued++
	if ok {
		ln.queue = append(ln.queue, ev)
		return
	}
	ln = &lane{queue: []Event{ev}}
	l.byID[ev.ID] = ln
	l.n.wg.Add(1)
	go l.drain(ev.ID, ln)
}

// ends reports whether the event is a set's last: answered, cancelled or
// timed out.
func (e Event) ends() bool {
	switch e.base() {
	case Answered, Cancelled, Timeout:
		return true
	}
	return false
}

func (l *lanes) drain(id string, ln *lane) {
	defer l.n.wg.Done()
	for {
		l.mu.Lock()
		empty := len(ln.queue) == 0
		if empty {
			delete(l.byID, id)
		}
		l.mu.Unlock()
		if empty || !l.turn() {
			l.forget(id, ln)
			return
		}
		l.mu.Lock()
		ev := ln.queue[0]
		ln.queue = ln.queue[1:]
		l.took()
		l.mu.Unlock()
		l.deliver(ev)
		if l.turns != nil {
			<-l.turns
		}
	}
}

// turn waits for a delivery's turn; false when the notifier stopped first.
func (l *lanes) turn() bool {
	if l.turns == nil {
		return true
	}
	select {
	case l.turns <- struct{}{}:
		return true
	case <-l.n.ctx.Done():
		return false
	}
}

// took counts an event taken off its lane; l.mu is held. Once none waits,
// the merges and drops since the last time are told in one line.
func (l *lanes) took() {
	l.queued--
	if l.queued == 0 && l.merged+l.dropped > 0 {
		l.n.log.Warn("notify: "+l.s.name()+": merged "+strconv.Itoa(l.merged)+" and dropped "+strconv.Itoa(l.dropped)+
			" events between a set's asked and its end while the queue was full", "queued", l.maxQueued, "running", cap(l.turns))
		l.merged, l.dropped = 0, 0
	}
}

// forget drops what is left of a lane once the notifier stopped: nobody
// would be told.
func (l *lanes) forget(id string, ln *lane) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(ln.queue) == 0 {
		return
	}
	l.n.log.Debug("notify: "+l.s.name()+": not delivered, askbridge is closing", "id", id, "events", len(ln.queue))
	l.queued -= len(ln.queue)
	ln.queue = nil
	if l.byID[id] == ln {
		delete(l.byID, id)
	}
}

func (l *lanes) deliver(ev Event) {
	ctx, cancel := context.WithTimeout(l.n.ctx, l.n.opts.Timeout)
	defer cancel()
	start := time.Now()
	err := l.s.deliver(ctx, ev)
	took := time.Since(start).Round(time.Millisecond)
	switch {
	case err == nil:
		l.n.log.Debug("notify: delivered", "to", l.s.name(), "event", ev.Event, "id", ev.ID, "took", took)
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		l.n.log.Warn("notify: "+l.s.name()+" timed out and was stopped", "event", ev.Event, "id", ev.ID, "timeout", l.n.opts.Timeout, "err", err)
	default:
		l.n.log.Warn("notify: "+l.s.name()+" failed", "event", ev.Event, "id", ev.ID, "took", took, "err", err)
	}
}
