package hubserve

import (
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"slices"
	"strings"
)

// The addresses the hub prints for its page are ones a phone can open:
// --public-url when given; else the listener's own, a loopback one as
// localhost (the name a passkey takes); for every interface (0.0.0.0, ::,
// an empty host) the certificate's name, else each address this machine
// has. Never an unspecified one, which no browser opens.

// pageHosts are the host:ports of a page listening on ln, the one to
// print first first, ifaces this machine's addresses (net.InterfaceAddrs).
func pageHosts(ln net.Addr, cfg *tls.Config, ifaces []net.Addr) []string {
	host, port, err := net.SplitHostPort(ln.String())
	ip := net.ParseIP(host)
	switch {
	case err != nil:
		return []string{ln.String()}
	case host == "localhost" || ip != nil && ip.IsLoopback():
		return []string{net.JoinHostPort("localhost", port)}
	case ip == nil:
		return []string{ln.String()} // a name: the one it was given
	}
	if cfg != nil && len(cfg.Certificates) > 0 {
		// A browser refuses an address the certificate does not cover.
		if leaf := cfg.Certificates[0].Leaf; leaf != nil && (ip.IsUnspecified() || leaf.VerifyHostname(host) != nil) {
			if name := certHost(leaf); name != "" {
				return []string{net.JoinHostPort(name, port)}
			}
		}
	}
	if !ip.IsUnspecified() {
		return []string{ln.String()}
	}
	var out []string
	for _, a := range reachable(ifaces, ip.To4() == nil) {
		out = append(out, net.JoinHostPort(a.String(), port))
	}
	if len(out) == 0 {
		return []string{net.JoinHostPort("localhost", port)} // every interface takes loopback too
	}
	return out
}

// reachable are the addresses of ifaces another device may open, tailnet
// first, then private IPv4, other IPv4, then IPv6 when v6 (a bind on ::
// takes both).
func reachable(ifaces []net.Addr, v6 bool) []net.IP {
	var ips []net.IP
	for _, a := range ifaces {
		var ip net.IP
		switch a := a.(type) {
		case *net.IPNet:
			ip = a.IP
		case *net.IPAddr:
			ip = a.IP
		}
		if ip == nil || ip.IsLoopback() || ip.IsUnspecified() || ip.IsLinkLocalUnicast() || ip.IsMulticast() || ip.To4() == nil && !v6 {
			continue
		}
		ips = append(ips, ip)
	}
	rank := func(ip net.IP) int {
		switch {
		case tailnet.Contains(ip):
			return 0
		case ip.To4() != nil && ip.IsPrivate():
			return 1
		case ip.To4() != nil:
			return 2
		}
		return 3
	}
	slices.SortStableFunc(ips, func(a, b net.IP) int { return rank(a) - rank(b) })
	return ips
}

// tailnet is Tailscale's address range (CGNAT, 100.64.0.0/10).
var tailnet = &net.IPNet{IP: net.IPv4(100, 64, 0, 0).To4(), Mask: net.CIDRMask(10, 32)}

// pageAddr is the host:port the page's URL names (desk.Options.Addr).
func pageAddr(ln net.Addr, cfg *tls.Config) string {
	ifaces, _ := net.InterfaceAddrs()
	return pageHosts(ln, cfg, ifaces)[0]
}

// printWhere says where the hub's page is: at --public-url when given (and
// on this machine at local), else at local and each other address.
func printWhere(w io.Writer, local, publicURL string, others []string) {
	if publicURL != "" {
		fmt.Fprintf(w, "askbridge: hub at %s (on this machine at %s)\n", publicURL, local)
		return
	}
	fmt.Fprintf(w, "askbridge: hub at %s\n", local)
	if len(others) > 0 {
		fmt.Fprintf(w, "askbridge: also at %s\n", strings.Join(others, ", "))
	}
}

// otherURLs are the page's other addresses than its URL's, as URLs.
func otherURLs(pageURL string, ln net.Addr, cfg *tls.Config) []string {
	scheme, _, _ := strings.Cut(pageURL, "://")
	ifaces, _ := net.InterfaceAddrs()
	var out []string
	for _, h := range pageHosts(ln, cfg, ifaces) {
		if u := scheme + "://" + h + "/"; u != pageURL {
			out = append(out, u)
		}
	}
	return out
}
