package webpush

import "net/netip"

// notPublic says why a is no push service's address ("" when it can be
// one): every special-purpose range of the IANA registries that reaches
// this machine, its networks or nothing at all. An IPv4 address written as
// IPv6 (::ffff:a.b.c.d, or NAT64's 64:ff9b::a.b.c.d) is judged as the IPv4
// address it reaches.
func notPublic(a netip.Addr) string {
	a = a.Unmap().WithZone("")
	if a.Is6() && nat64.Contains(a) {
		b := a.As16()
		a = netip.AddrFrom4([4]byte(b[12:]))
	}
	for _, r := range special {
		if r.prefix.Contains(a) {
			return r.what
		}
	}
	if a.Is6() && !global6.Contains(a) {
		return "not a global unicast IPv6 address (2000::/3)"
	}
	return ""
}

var (
	nat64   = netip.MustParsePrefix("64:ff9b::/96")
	global6 = netip.MustParsePrefix("2000::/3")
)

const (
	private = "a private address (RFC 1918)"
	doc     = "a documentation address"
)

var special = []struct {
	prefix netip.Prefix
	what   string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), "an address of this network (0.0.0.0/8, unspecified included)"},
	{netip.MustParsePrefix("10.0.0.0/8"), private},
	{netip.MustParsePrefix("100.64.0.0/10"), "a shared address (CGNAT, 100.64.0.0/10)"},
	{netip.MustParsePrefix("127.0.0.0/8"), "a loopback address"},
	{netip.MustParsePrefix("169.254.0.0/16"), "a link-local address"},
	{netip.MustParsePrefix("172.16.0.0/12"), private},
	{netip.MustParsePrefix("192.0.0.0/24"), "an IETF protocol address (192.0.0.0/24)"},
	{netip.MustParsePrefix("192.0.2.0/24"), doc},
	{netip.MustParsePrefix("192.88.99.0/24"), "a 6to4 relay address"},
	{netip.MustParsePrefix("192.168.0.0/16"), private},
	{netip.MustParsePrefix("198.18.0.0/15"), "a benchmarking address"},
	{netip.MustParsePrefix("198.51.100.0/24"), doc},
	{netip.MustParsePrefix("203.0.113.0/24"), doc},
	{netip.MustParsePrefix("224.0.0.0/4"), "a multicast address"},
	{netip.MustParsePrefix("240.0.0.0/4"), "a reserved address (240.0.0.0/4, broadcast included)"},
	{netip.MustParsePrefix("::/128"), "the unspecified address"},
	{netip.MustParsePrefix("::1/128"), "a loopback address"},
	{netip.MustParsePrefix("fc00::/7"), "a unique-local address"},
	{netip.MustParsePrefix("fe80::/10"), "a link-local address"},
	{netip.MustParsePrefix("ff00::/8"), "a multicast address"},
	{netip.MustParsePrefix("2001::/23"), "an IETF special-purpose address (2001::/23, Teredo included)"},
	{netip.MustParsePrefix("2001:db8::/32"), doc},
	{netip.MustParsePrefix("2002::/16"), "a 6to4 address (it reaches an IPv4 address of any kind)"},
}
