package desk

import (
	"crypto/rand"
	"encoding/base64"
	"sync"
	"time"
)

// A ticket is what a request's proof is bound to (auth_mac.go): the
// server gives one out with every /api/prove answer, and takes it back
// the first time a request proves with it. It is random, lives
// ticketLife, and is kept only in memory: a ticket a squatter catches is
// one the hub that issued it has either consumed or, being restarted,
// never heard of.
const (
	ticketLife = 30 * time.Second
	// maxTickets bounds the store: anyone may ask for a ticket (it is
	// what comes before a session), so a flood pushes out the oldest
	// rather than growing memory.
	maxTickets = 4096
)

// tickets are the tickets out, oldest first. The zero value is ready.
type tickets struct {
	mu    sync.Mutex
	out   map[string]time.Time // ticket -> when it expires
	order []string
}

// issue gives out a fresh ticket.
func (t *tickets) issue(now time.Time) string {
	b := make([]byte, 18)
	rand.Read(b)
	tk := base64.RawURLEncoding.EncodeToString(b)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.out == nil {
		t.out = map[string]time.Time{}
	}
	t.prune(now)
	for len(t.order) >= maxTickets {
		delete(t.out, t.order[0])
		t.order = t.order[1:]
	}
	t.out[tk] = now.Add(ticketLife)
	t.order = append(t.order, tk)
	return tk
}

// take consumes tk: true once, for a ticket out and not expired.
func (t *tickets) take(tk string, now time.Time) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	exp, ok := t.out[tk]
	delete(t.out, tk) // its slot in order goes with prune or eviction
	return ok && now.Before(exp)
}

// pending says whether tk is out and unexpired, without consuming it.
func (t *tickets) pending(tk string, now time.Time) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	exp, ok := t.out[tk]
	return ok && now.Before(exp)
}

// prune drops the expired and taken tickets at the head of order.
func (t *tickets) prune(now time.Time) {
	for len(t.order) > 0 {
		exp, ok := t.out[t.order[0]]
		if ok && now.Before(exp) {
			return
		}
		delete(t.out, t.order[0])
		t.order = t.order[1:]
	}
}
