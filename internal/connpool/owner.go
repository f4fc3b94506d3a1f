package connpool

import "net/http"

// Own records that the connection r came on is owner's (a paired
// device's): CloseOwned(owner) closes it. A connection carries one owner,
// its last.
func (p *Pool) Own(r *http.Request, owner string) {
	c, ok := r.Context().Value(ctxKey{}).(*Conn)
	if !ok || owner == "" {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if c.owner == owner || c.closed {
		return
	}
	p.disown(c)
	c.owner = owner
	if p.owned[owner] == nil {
		p.owned[owner] = map[*Conn]struct{}{}
	}
	p.owned[owner][c] = struct{}{}
}

// CloseOwned closes every connection of owner (a device revoked): the
// requests and streams on them end at once. It says how many there were.
func (p *Pool) CloseOwned(owner string) int {
	p.mu.Lock()
	conns := p.owned[owner]
	delete(p.owned, owner)
	for c := range conns {
		c.owner = ""
	}
	p.mu.Unlock()
	for c := range conns {
		c.Close()
	}
	return len(conns)
}

// disown takes c out of its owner's connections; p.mu held.
func (p *Pool) disown(c *Conn) {
	if c.owner == "" {
		return
	}
	delete(p.owned[c.owner], c)
	if len(p.owned[c.owner]) == 0 {
		delete(p.owned, c.owner)
	}
	c.owner = ""
}

// Disown makes the connection r came on no one's: a device revoking
// itself still gets its answer on it (which should then close it).
func (p *Pool) Disown(r *http.Request) {
	if c, ok := r.Context().Value(ctxKey{}).(*Conn); ok {
		p.mu.Lock()
		p.disown(c)
		p.mu.Unlock()
	}
}
