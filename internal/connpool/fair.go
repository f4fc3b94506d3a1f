package connpool

import (
	"container/list"
	"time"
)

// Fair sharing. When the pool is full, the stranger closed for a newcomer
// is the oldest of the source address holding the most strangers, so one
// address (or many churning together) cannot push out another's single
// connection while it handshakes; and addresses that authenticated lately
// (a paired browser's) lose a stranger only when no other address has one.

// knownFor is how long an address that authenticated stays known;
// maxKnown bounds how many are remembered.
const (
	knownFor = time.Hour
	maxKnown = 4096
)

// count is how many strangers addr holds; p.mu held.
func (p *Pool) count(addr string) int {
	if l := p.byAddr[addr]; l != nil {
		return l.Len()
	}
	return 0
}

// add makes c a stranger; p.mu held.
func (p *Pool) add(c *Conn) {
	l := p.byAddr[c.addr]
	if l == nil {
		l = list.New()
		p.byAddr[c.addr] = l
	}
	c.elem = l.PushBack(c)
	p.strangers++
}

// remove takes c out of the strangers; p.mu held.
func (p *Pool) remove(c *Conn) {
	if c.elem == nil {
		return
	}
	l := p.byAddr[c.addr]
	l.Remove(c.elem)
	c.elem = nil
	p.strangers--
	if l.Len() == 0 {
		delete(p.byAddr, c.addr)
	}
}

// victim is the stranger to close for a newcomer: of the addresses not
// known, else of all, the one holding most strangers (on a tie, the one
// whose oldest came first), its oldest; p.mu held, the pool not empty.
func (p *Pool) victim() *Conn {
	var best *Conn
	bestKnown, bestLen := true, 0
	now := time.Now()
	for addr, l := range p.byAddr {
		oldest := l.Front().Value.(*Conn)
		known := now.Sub(p.known[addr]) < knownFor
		better := best == nil ||
			bestKnown && !known ||
			bestKnown == known && (l.Len() > bestLen || l.Len() == bestLen && oldest.seq < best.seq)
		if better {
			best, bestKnown, bestLen = oldest, known, l.Len()
		}
	}
	return best
}

// knows records that addr authenticated now; p.mu held.
func (p *Pool) knows(addr string) {
	now := time.Now()
	if _, ok := p.known[addr]; !ok && len(p.known) >= maxKnown {
		for a, at := range p.known {
			if now.Sub(at) >= knownFor || len(p.known) >= maxKnown {
				delete(p.known, a)
			}
		}
	}
	p.known[addr] = now
}
