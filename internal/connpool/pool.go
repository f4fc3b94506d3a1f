package connpool

import (
	"container/list"
	"context"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// HeaderTimeout bounds reading a request's headers: a browser or client
// sends them at once, and a connection that holds them back holds a place.
const HeaderTimeout = 2 * time.Second

// Defaults of Options.
const (
	DefaultStrangers = 64
	DefaultPerAddr   = 8
)

// Options size a Pool; zero takes the default.
type Options struct {
	// Strangers caps the connections that have not authenticated; a new one
	// beyond it closes the oldest.
	Strangers int
	// PerAddr caps the strangers of one remote address beyond loopback
	// (an IPv6 /64); a new one beyond it is answered 503 and closed.
	PerAddr int
	// Name says whose connections they are in the log ("desk").
	Name   string
	Logger *slog.Logger
}

// Pool tracks a server's connections. Use Listener, Handler and Server
// together on one http.Server.
type Pool struct {
	opts      Options
	mu        sync.Mutex
	strangers int                           // connections not authenticated
	byAddr    map[string]*list.List         // their *Conn per source address, oldest first (fair.go)
	known     map[string]time.Time          // addresses that authenticated lately (fair.go)
	owned     map[string]map[*Conn]struct{} // connections per owner (owner.go)
	seq       uint64                        // admissions, for their order
	warned    time.Time
}

// New returns an empty pool.
func New(opts Options) *Pool {
	if opts.Strangers <= 0 {
		opts.Strangers = DefaultStrangers
	}
	if opts.PerAddr <= 0 {
		opts.PerAddr = DefaultPerAddr
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	return &Pool{opts: opts, byAddr: map[string]*list.List{}, known: map[string]time.Time{}, owned: map[string]map[*Conn]struct{}{}}
}

// Conn is an accepted connection.
type Conn struct {
	net.Conn
	pool *Pool
	addr string // its source address (an IPv6 /64)
	// capped: beyond loopback, where an address holds at most PerAddr
	// strangers.
	capped bool
	seq    uint64        // its admission's
	elem   *list.Element // in pool.byAddr[addr] while a stranger; pool.mu
	close  sync.Once
	// owner is the paired device whose requests it carries (owner.go);
	// closed, that it closed. pool.mu guards both.
	owner  string
	closed bool
	// trusted is set once a request on it authenticated.
	trusted atomic.Bool
}

// Close closes the connection and gives back its place.
func (c *Conn) Close() error {
	c.close.Do(func() { c.pool.leave(c) })
	return c.Conn.Close()
}

// Listener admits ln's connections into the pool.
func (p *Pool) Listener(ln net.Listener) net.Listener { return &listener{Listener: ln, pool: p} }

type listener struct {
	net.Listener
	pool *Pool
}

func (l *listener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if pc := l.pool.admit(c); pc != nil {
			return pc, nil
		}
		busy(c)
	}
}

// admit adds c as a stranger, displacing one if the pool is full (fair.go
// says which); nil when c's address has as many strangers as it may.
func (p *Pool) admit(c net.Conn) *Conn {
	addr, loopback := addrKey(c.RemoteAddr())
	pc := &Conn{Conn: c, pool: p, addr: addr, capped: !loopback}
	var evict *Conn
	p.mu.Lock()
	if pc.capped && p.count(addr) >= p.opts.PerAddr {
		p.warn("too many unauthenticated connections from one address; refusing more", "addr", addr)
		p.mu.Unlock()
		return nil
	}
	if p.strangers >= p.opts.Strangers {
		evict = p.victim()
		p.remove(evict)
		p.warn("too many unauthenticated connections; closing one of the address holding most", "max", p.opts.Strangers, "addr", evict.addr)
	}
	p.seq++
	pc.seq = p.seq
	p.add(pc)
	p.mu.Unlock()
	if evict != nil {
		evict.Conn.Close() // its server goroutine sees the error and ends
	}
	return pc
}

// trust marks c as authenticated: it leaves the strangers for good, and
// its address is known (fair.go).
func (p *Pool) trust(c *Conn) {
	c.trusted.Store(true)
	p.mu.Lock()
	p.remove(c)
	p.knows(c.addr)
	p.mu.Unlock()
}

func (p *Pool) leave(c *Conn) {
	p.mu.Lock()
	p.remove(c)
	p.disown(c)
	c.closed = true
	p.mu.Unlock()
}

// warn logs at most once every 10 s; p.mu is held.
func (p *Pool) warn(msg string, args ...any) {
	if time.Since(p.warned) > 10*time.Second {
		p.warned = time.Now()
		p.opts.Logger.Warn(p.opts.Name+": "+msg, args...)
	}
}

// Strangers is how many connections have not authenticated.
func (p *Pool) Strangers() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.strangers
}

// busy answers a connection turned away 503 and closes it, at once: a
// flood then costs no more descriptors than the pool holds.
func busy(c net.Conn) {
	const body = "too many connections from this address; try again\n"
	c.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
	c.Write([]byte("HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\nRetry-After: 1\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body))
	c.Close()
}

// addrKey is the source address fairness and the per-address limit count:
// the IP, an IPv6 address's /64 (one host's share); loopback says whether
// it is a loopback address, where every local process has the same
// address and a limit would only lock them all out (fairness still holds
// between 127.0.0.1 and 127.0.0.2).
func addrKey(a net.Addr) (key string, loopback bool) {
	tcp, ok := a.(*net.TCPAddr)
	if !ok {
		return "", true // a Unix socket's peers are this machine's
	}
	ip := tcp.IP
	switch {
	case ip.IsLoopback():
		return ip.String(), true
	case ip.To4() != nil:
		return ip.To4().String(), false
	}
	return ip.Mask(net.CIDRMask(64, 128)).String() + "/64", false
}

type ctxKey struct{}

// Handler marks a request's connection as authenticated when
// authenticated(r) says so, before next serves it.
func (p *Pool) Handler(authenticated func(*http.Request) bool, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if c, ok := r.Context().Value(ctxKey{}).(*Conn); ok && !c.trusted.Load() && authenticated(r) {
			p.trust(c)
		}
		next.ServeHTTP(w, r)
	})
}

// Server sets what srv needs of the pool: the header timeout, and the
// connection in each request's context for Handler.
func (p *Pool) Server(srv *http.Server) {
	srv.ReadHeaderTimeout = HeaderTimeout
	srv.ConnContext = func(ctx context.Context, c net.Conn) context.Context {
		for {
			switch v := c.(type) {
			case *Conn:
				return context.WithValue(ctx, ctxKey{}, v)
			case interface{ NetConn() net.Conn }: // *tls.Conn
				c = v.NetConn()
			default:
				return ctx
			}
		}
	}
}
