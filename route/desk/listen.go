package desk

import (
	"errors"
	"fmt"
	"net"
	"syscall"

	"github.com/askbridge/askbridge/internal/activation"
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
			return activation.Join(v4, v6), nil
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
