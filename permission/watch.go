package permission

import "context"

// Subscribe returns the board's events until ctx ends. A watcher too slow
// to keep up misses events rather than holding the board up.
func (b *Board) Subscribe(ctx context.Context) <-chan Event {
	ch := make(chan Event, 64)
	b.mu.Lock()
	b.watchers[ch] = struct{}{}
	b.mu.Unlock()
	go func() {
		<-ctx.Done()
		b.mu.Lock()
		delete(b.watchers, ch)
		close(ch)
		b.mu.Unlock()
	}()
	return ch
}

// publish sends an event to every watcher; b.mu is held.
func (b *Board) publish(typ string, p Pending) {
	for ch := range b.watchers {
		select {
		case ch <- Event{Type: typ, Pending: p}:
		default:
		}
	}
}
