package desk

import (
	"log/slog"
	"net"
	"strconv"
	"sync"
	"time"
)

// limitConns caps the connections open at once at max. A connection over
// the cap is answered 503 and closed at once rather than left waiting to
// be accepted: a flood of idle connections then costs no more than max
// descriptors, and the page, which retries, gets in as soon as they go
// (IdleTimeout and RequestTimeout see to that).
func limitConns(ln net.Listener, max int, logger *slog.Logger) net.Listener {
	return &limitListener{Listener: ln, slots: make(chan struct{}, max), logger: logger}
}

type limitListener struct {
	net.Listener
	slots  chan struct{}
	logger *slog.Logger
	warned time.Time // only Accept's goroutine touches it
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		select {
		case l.slots <- struct{}{}:
			return &limitConn{Conn: c, release: sync.OnceFunc(func() { <-l.slots })}, nil
		default:
		}
		if time.Since(l.warned) > 10*time.Second {
			l.warned = time.Now()
			l.logger.Warn("desk: too many connections; refusing more", "max", cap(l.slots))
		}
		const body = "the answer desk has too many connections open; try again\n"
		c.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
		c.Write([]byte("HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\nRetry-After: 1\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body))
		c.Close()
	}
}

type limitConn struct {
	net.Conn
	release func()
}

func (c *limitConn) Close() error {
	c.release()
	return c.Conn.Close()
}
