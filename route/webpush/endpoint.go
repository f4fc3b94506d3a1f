package webpush

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"syscall"
	"time"
)

// TestService is, for tests alone, the test push service
// (webpushtest.Service.Addr and Roots): its one loopback address, which
// the guard lets a push reach, and the certificate it is trusted by. The
// hub leaves it zero, and nothing a user or an agent sets reaches it: the
// guard then takes public addresses only.
type TestService struct {
	Addr  netip.AddrPort
	Roots *x509.CertPool
}

// guard keeps the hub's pushes to the push services: a subscription's
// endpoint is whatever the paired page said, and a page (or whoever holds
// a device's session) could name the hub's own machine, its network or a
// cloud's metadata service; the hub would then connect there on every
// question. It is checked when a subscription is stored and again at the
// address actually dialled, as a name's address may change in between.
type guard struct {
	test     TestService
	resolver *net.Resolver
}

// checkURL says what is wrong with endpoint's form: https, a host, no
// user:pass@.
func checkURL(endpoint string) (*url.URL, error) {
	u, err := url.Parse(endpoint)
	switch {
	case err != nil || u.Host == "" || u.Hostname() == "":
		return nil, errors.New("endpoint: not an address")
	case u.Scheme != "https":
		return nil, errors.New("endpoint: a push service is reached over https only")
	case u.User != nil:
		return nil, errors.New("endpoint: a push service's address has no user:pass@")
	}
	return u, nil
}

// check says what is wrong with sub: its endpoint's form, or an address
// its host has (resolved now) that is not a public one; and both keys.
func (g guard) check(ctx context.Context, sub Subscription) error {
	u, err := checkURL(sub.Endpoint)
	if err != nil {
		return err
	}
	if sub.Keys.P256dh == "" || sub.Keys.Auth == "" {
		return errors.New("keys: want p256dh and auth, as PushSubscription.toJSON gives them")
	}
	port := 443
	if p := u.Port(); p != "" {
		if _, err := fmt.Sscan(p, &port); err != nil || port < 1 || port > 65535 {
			return fmt.Errorf("endpoint: port %q", p)
		}
	}
	host := u.Hostname()
	addrs := []netip.Addr{}
	if a, err := netip.ParseAddr(host); err == nil {
		addrs = append(addrs, a)
	} else {
		ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		if addrs, err = g.resolver.LookupNetIP(ctx, "ip", host); err != nil || len(addrs) == 0 {
			return fmt.Errorf("endpoint: %s cannot be resolved now: %v", host, err)
		}
	}
	for _, a := range addrs {
		if err := g.allowed(netip.AddrPortFrom(a, uint16(port))); err != nil {
			if a.String() != host {
				return fmt.Errorf("endpoint: %s is at %w", host, err)
			}
			return fmt.Errorf("endpoint: %w", err)
		}
	}
	return nil
}

// allowed is nil for a public address (or the test service's), else the
// reason it is refused.
func (g guard) allowed(ap netip.AddrPort) error {
	ap = netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port())
	if g.test.Addr.IsValid() && ap == g.test.Addr {
		return nil
	}
	if why := notPublic(ap.Addr()); why != "" {
		return fmt.Errorf("%s, %s: a push service is on the public internet", ap.Addr(), why)
	}
	return nil
}

// control is the dialer's last word, on the address it is about to
// connect to (after any DNS): what check said of the name may have changed.
func (g guard) control(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("web push: refused to dial %q: not an address", address)
	}
	if err := g.allowed(ap); err != nil {
		return fmt.Errorf("web push: refused to dial %w", err)
	}
	return nil
}

// client sends the pushes: every connection through the guard, no proxy
// (the guard would see the proxy's address, not the push service's), no
// redirect followed (the push service answers, nothing else), 10 s each.
func (g guard) client() *http.Client {
	d := &net.Dialer{Timeout: 10 * time.Second, Control: g.control}
	tr := &http.Transport{
		Proxy:               nil,
		DialContext:         d.DialContext,
		TLSClientConfig:     &tls.Config{RootCAs: g.test.Roots, MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout: 10 * time.Second,
		ForceAttemptHTTP2:   true,
		IdleConnTimeout:     90 * time.Second,
	}
	return &http.Client{Transport: tr, Timeout: 10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}
