package hub

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"time"
)

// link is one connection between an askbridge and the hub, from either
// end: messages out through a bounded queue, written by a goroutine of
// their own, so a sender never waits on the other end.
type link struct {
	c      net.Conn
	out    chan []byte
	ctx    context.Context
	cancel context.CancelFunc
}

// newLink starts writing to c; c is closed once ctx ends or the link
// breaks.
func newLink(ctx context.Context, c net.Conn) *link {
	ctx, cancel := context.WithCancel(ctx)
	l := &link{c: c, out: make(chan []byte, queue), ctx: ctx, cancel: cancel}
	go func() {
		<-ctx.Done()
		c.Close()
	}()
	go l.write()
	return l
}

func (l *link) write() {
	for {
		select {
		case <-l.ctx.Done():
			return
		case b := <-l.out:
			l.c.SetWriteDeadline(time.Now().Add(writeTimeout))
			if _, err := l.c.Write(b); err != nil {
				l.cancel()
				return
			}
		}
	}
}

// send queues m. A full queue is a peer that stopped reading: the link is
// dropped (false) rather than anyone kept waiting.
func (l *link) send(m message) bool {
	b, err := json.Marshal(m)
	if err != nil {
		return false
	}
	select {
	case l.out <- append(b, '\n'):
		return true
	case <-l.ctx.Done():
		return false
	default:
		l.cancel()
		return false
	}
}

// read gives each line that is a message to fn until the link breaks.
// A line that is not a message is skipped.
func (l *link) read(fn func(message)) {
	defer l.cancel()
	sc := bufio.NewScanner(l.c)
	sc.Buffer(nil, maxLine)
	for sc.Scan() {
		var m message
		if json.Unmarshal(sc.Bytes(), &m) == nil {
			fn(m)
		}
	}
}
