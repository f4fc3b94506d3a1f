package connpool

import (
	"net"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
)

// closeConn is a connection from ip that records being closed.
type closeConn struct {
	net.Conn
	ip     string
	closed atomic.Bool
}

func (c *closeConn) RemoteAddr() net.Addr { return &net.TCPAddr{IP: net.ParseIP(c.ip), Port: 40000} }
func (c *closeConn) Close() error         { c.closed.Store(true); return nil }

func admitFrom(t *testing.T, p *Pool, ip string) (*Conn, *closeConn) {
	t.Helper()
	raw := &closeConn{ip: ip}
	c := p.admit(raw)
	if c == nil {
		t.Fatalf("%s was turned away", ip)
	}
	return c, raw
}

// A full pool closes, for a newcomer, the oldest stranger of the address
// holding the most: one address's single connection is not pushed out by
// another's many, however old it is. Before, the oldest stranger went,
// whoever's.
func TestTheAddressHoldingMostStrangersLosesFirst(t *testing.T) {
	p := New(Options{Strangers: 4, PerAddr: 8})
	_, lone := admitFrom(t, p, "192.0.2.1")
	var many []*closeConn
	for range 3 {
		_, c := admitFrom(t, p, "192.0.2.2")
		many = append(many, c)
	}
	for i := range 2 {
		admitFrom(t, p, "192.0.2.3")
		assert.True(t, many[i].closed.Load(), "the many's oldest, %d", i)
	}
	_, three := admitFrom(t, p, "192.0.2.3")
	assert.False(t, many[2].closed.Load(), "192.0.2.2 holds one now, 192.0.2.3 two")
	assert.False(t, three.closed.Load())
	assert.False(t, lone.closed.Load(), "the lone connection stays")
	assert.Equal(t, 4, p.Strangers())
	// Loopback addresses are told apart too, only not capped.
	q := New(Options{Strangers: 3})
	_, mine := admitFrom(t, q, "127.0.0.1")
	for range 20 {
		admitFrom(t, q, "127.0.0.2")
	}
	assert.False(t, mine.closed.Load())
}

// An address that authenticated lately (a paired browser's) loses a
// stranger only when no other address has one: its next connection,
// still handshaking, is safe from a crowd of addresses with one each.
func TestAKnownAddressLosesStrangersLast(t *testing.T) {
	p := New(Options{Strangers: 3, PerAddr: 8})
	first, _ := admitFrom(t, p, "198.51.100.9")
	p.trust(first)
	_, next := admitFrom(t, p, "198.51.100.9")
	for i := range 10 {
		admitFrom(t, p, "203.0.113."+string(rune('0'+i)))
	}
	assert.False(t, next.closed.Load(), "the owner's address is known")
	assert.Equal(t, 3, p.Strangers())
}
