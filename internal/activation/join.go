package activation

import (
	"errors"
	"net"
	"sync"
)

// Join accepts on several listeners as one (a page held on 127.0.0.1 and
// [::1] both): its Addr is the first's, and closing it closes them all.
func Join(lns ...net.Listener) net.Listener {
	if len(lns) == 1 {
		return lns[0]
	}
	j := &joined{lns: lns, conns: make(chan accepted), done: make(chan struct{})}
	for _, ln := range lns {
		go j.pump(ln)
	}
	return j
}

type joined struct {
	lns   []net.Listener
	conns chan accepted
	done  chan struct{}
	once  sync.Once
}

type accepted struct {
	c   net.Conn
	err error
}

// pump hands ln's connections to Accept until the join is closed.
func (j *joined) pump(ln net.Listener) {
	for {
		c, err := ln.Accept()
		select {
		case j.conns <- accepted{c, err}:
		case <-j.done:
			if c != nil {
				c.Close()
			}
			return
		}
		if err != nil && errors.Is(err, net.ErrClosed) {
			return
		}
	}
}

func (j *joined) Accept() (net.Conn, error) {
	select {
	case a := <-j.conns:
		return a.c, a.err
	case <-j.done:
		return nil, net.ErrClosed
	}
}

func (j *joined) Close() error {
	var err error
	j.once.Do(func() {
		close(j.done)
		for _, ln := range j.lns {
			if e := ln.Close(); err == nil {
				err = e
			}
		}
	})
	return err
}

func (j *joined) Addr() net.Addr { return j.lns[0].Addr() }
