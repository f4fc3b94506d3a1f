package hubserve

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/askbridge/askbridge/internal/activation"
	"github.com/askbridge/askbridge/route/desk"
)

// listenPage is the page's listener: the sockets the user's service
// manager holds for the hub when it started the hub (socket activation,
// askbridge hub --print-unit), else the hub's own (desk.ListenTCP). A
// socket the manager holds stays bound while the hub restarts, crashes or
// is killed, so the page's origin never goes free for another user to
// serve a page on; the hub only takes sockets that are what --listen
// names, all of it (both loopback families for a loopback --listen).
func listenPage(addr string, logger *slog.Logger) (net.Listener, error) {
	lns, err := activation.Listeners()
	if err != nil {
		return nil, &Error{Code: 2, Err: err}
	}
	if len(lns) == 0 {
		ln, err := desk.ListenTCP(addr) // both loopbacks, as localhost
		if err != nil {
			return nil, &Error{Code: 1, Err: fmt.Errorf("--listen %s: the address is taken (another hub's page, or another program): pick another with --listen", addr)}
		}
		return ln, nil
	}
	var got []string
	for _, ln := range lns {
		got = append(got, ln.Addr().String())
	}
	if err := heldMatches(addr, lns, ipv6Loopback()); err != nil {
		for _, ln := range lns {
			ln.Close()
		}
		return nil, &Error{Code: 2, Err: fmt.Errorf("socket activation: the service manager handed %s: %w", strings.Join(got, ", "), err)}
	}
	logger.Info("hub: the page's port is held by the service manager (socket activation): it stays bound while the hub restarts", "addrs", strings.Join(got, ", "))
	return activation.Join(lns...), nil
}

// heldMatches says whether the sockets lns are what --listen addr names:
// for a loopback host, 127.0.0.1 and [::1] on one port (the port of addr,
// or any one for port 0), [::1] left out only where the system has no IPv6
// loopback (v6 false); else that address itself, an empty host any
// unspecified one. Nothing else, nothing twice.
func heldMatches(addr string, lns []net.Listener, v6 bool) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--listen %q: want host:port", addr)
	}
	var tcp []*net.TCPAddr
	for _, ln := range lns {
		a, ok := ln.Addr().(*net.TCPAddr)
		if !ok {
			return fmt.Errorf("%s is not a TCP socket", ln.Addr())
		}
		tcp = append(tcp, a)
	}
	if port == "0" {
		port = strconv.Itoa(tcp[0].Port)
	}
	var want []string
	switch ip := net.ParseIP(host); {
	case host == "localhost" || ip != nil && ip.IsLoopback():
		want = []string{net.JoinHostPort("127.0.0.1", port)}
		if v6 {
			want = append(want, net.JoinHostPort("::1", port))
		}
	case host == "":
		want = []string{net.JoinHostPort("::", port)}
		if len(tcp) == 1 && tcp[0].IP.To4() != nil {
			want = []string{net.JoinHostPort("0.0.0.0", port)}
		}
	case ip == nil:
		return fmt.Errorf("--listen %s names a host: socket activation needs its IP address", addr)
	default:
		want = []string{net.JoinHostPort(ip.String(), port)}
	}
	var have []string
	for _, a := range tcp {
		have = append(have, a.String())
	}
	slices.Sort(want)
	slices.Sort(have)
	if !slices.Equal(want, have) {
		return fmt.Errorf("--listen %s wants the hub on %s, no more, no less (a loopback port free on either family is another user's to take)", addr, strings.Join(want, " and "))
	}
	return nil
}

// ipv6Loopback says whether this system has [::1]: where it has not, no
// one can bind it either, and the manager holds 127.0.0.1 alone.
func ipv6Loopback() bool {
	ln, err := net.Listen("tcp6", "[::1]:0")
	if err == nil {
		ln.Close()
		return true
	}
	return !(errors.Is(err, syscall.EADDRNOTAVAIL) || errors.Is(err, syscall.EAFNOSUPPORT) || errors.Is(err, syscall.EPROTONOSUPPORT))
}
