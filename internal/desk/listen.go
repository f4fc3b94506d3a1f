package desk

import (
	"errors"
	"fmt"
	"net"
	"sync"
	"syscall"
)

// ListenTCP listens on addr. On loopback it holds every name the printed
// address (http://localhost:PORT/) resolves to: 127.0.0.1:PORT and
// [::1]:PORT both, on one port, whichever of the two addr names (a
// browser tries ::1 first; a port left free on the other family is
// another user's to take, and with it the page, its code, cookie and
// key). Where the system has no IPv6 loopback, no one can bind [::1]
// either. A port asked for that is taken on either family is an error;
// port 0 picks one free on both.
func ListenTCP(addr string) (net.Listener, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	if !isLoopback(host) {
		return net.Listen("tcp", addr)
	}
	var last error
	for range 20 { // port 0: the port 127.0.0.1 picked may be taken on ::1
		v4, err := net.Listen("tcp4", net.JoinHostPort("127.0.0.1", port))
		if err != nil {
			return nil, err
		}
		_, got, _ := net.SplitHostPort(v4.Addr().String())
		v6, err := net.Listen("tcp6", net.JoinHostPort("::1", got))
		switch {
		case err == nil:
			return joinListeners(v4, v6), nil
		case noIPv6Loopback(err):
			return v4, nil
		}
		v4.Close()
		last = fmt.Errorf("listen tcp [::1]:%s: %w (the page's name, localhost, resolves to it too)", got, err)
		if port != "0" {
			break
		}
	}
	return nil, last
}

// noIPv6Loopback is binding ::1 on a system without it.
func noIPv6Loopback(err error) bool {
	return errors.Is(err, syscall.EADDRNOTAVAIL) || errors.Is(err, syscall.EAFNOSUPPORT) || errors.Is(err, syscall.EPROTONOSUPPORT)
}

// joined accepts on several listeners as one: its Addr is the first's.
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

func joinListeners(lns ...net.Listener) net.Listener {
	j := &joined{lns: lns, conns: make(chan accepted), done: make(chan struct{})}
	for _, ln := range lns {
		go func() {
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
		}()
	}
	return j
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
