package hubserve

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"net"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route/desk"
)

// --allow-remote-http says at every start, as a warning, that the token
// crosses the network in clear text.
func TestWarnClearText(t *testing.T) {
	var b bytes.Buffer
	WarnClearText(&b, "0.0.0.0:7683")
	line := b.String()
	assert.Contains(t, line, "level=WARN")
	assert.Contains(t, line, "clear text")
	assert.Contains(t, line, "--allow-remote-http")
	assert.Contains(t, line, "listen=0.0.0.0:7683")
}

// A page prints addresses a phone can open, never an unspecified one: on
// every interface (0.0.0.0, ::, an empty host, which printed
// http://[::]:7684/), the certificate's name, else each address this
// machine has, tailnet and private first, IPv6 only for a bind that takes
// it; a loopback page as localhost; none at all: localhost.
func TestPageHosts(t *testing.T) {
	tcp := func(ip string, port int) net.Addr { return &net.TCPAddr{IP: net.ParseIP(ip), Port: port} }
	ipnet := func(s string) net.Addr {
		ip, n, err := net.ParseCIDR(s)
		require.NoError(t, err)
		n.IP = ip
		return n
	}
	lan := []net.Addr{ipnet("127.0.0.1/8"), ipnet("::1/128"), ipnet("fe80::1/64"), ipnet("203.0.113.7/24"),
		ipnet("2001:db8::7/64"), ipnet("192.168.1.20/24"), ipnet("100.101.102.103/32")}
	for _, c := range []struct {
		name   string
		ln     net.Addr
		ifaces []net.Addr
		want   []string
	}{
		{"loopback is localhost", tcp("127.0.0.1", 7683), lan, []string{"localhost:7683"}},
		{"IPv6 loopback is localhost", tcp("::1", 7683), lan, []string{"localhost:7683"}},
		{"a given host is kept", tcp("192.168.1.20", 7683), lan, []string{"192.168.1.20:7683"}},
		{"0.0.0.0: this machine's IPv4 addresses", tcp("0.0.0.0", 7684), lan, []string{"100.101.102.103:7684", "192.168.1.20:7684", "203.0.113.7:7684"}},
		{":: (and an empty host): IPv6 too", tcp("::", 7684), lan, []string{"100.101.102.103:7684", "192.168.1.20:7684", "203.0.113.7:7684", "[2001:db8::7]:7684"}},
		{"a public address only (no private one)", tcp("::", 7684), []net.Addr{ipnet("127.0.0.1/8"), ipnet("203.0.113.7/24")}, []string{"203.0.113.7:7684"}},
		{"IPv6 only", tcp("::", 7684), []net.Addr{ipnet("::1/128"), ipnet("2001:db8::7/64")}, []string{"[2001:db8::7]:7684"}},
		{"no address but loopback", tcp("::", 7684), []net.Addr{ipnet("127.0.0.1/8"), ipnet("fe80::1/64")}, []string{"localhost:7684"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := pageHosts(c.ln, nil, c.ifaces)
			assert.Equal(t, c.want, got)
			for _, h := range got {
				host, _, err := net.SplitHostPort(h)
				require.NoError(t, err)
				ip := net.ParseIP(host)
				assert.False(t, ip != nil && ip.IsUnspecified(), "never an unspecified address: %s", h)
			}
		})
	}
	// The machine's own, whatever it has: never unspecified.
	host, _, err := net.SplitHostPort(pageAddr(tcp("::", 7684), nil))
	require.NoError(t, err)
	assert.False(t, net.ParseIP(host) != nil && net.ParseIP(host).IsUnspecified(), host)

	ts := &tls.Config{Certificates: []tls.Certificate{{Leaf: &x509.Certificate{DNSNames: []string{"laptop.tail1234.ts.net"}, IPAddresses: []net.IP{net.IPv4(192, 168, 1, 2)}}}}}
	assert.Equal(t, []string{"laptop.tail1234.ts.net:7683"}, pageHosts(tcp("0.0.0.0", 7683), ts, lan), "every interface: the certificate's name")
	assert.Equal(t, []string{"laptop.tail1234.ts.net:7683"}, pageHosts(tcp("100.64.1.2", 7683), ts, lan), "an address the certificate does not cover")
	assert.Equal(t, []string{"192.168.1.2:7683"}, pageHosts(tcp("192.168.1.2", 7683), ts, lan), "an address it covers")
	assert.Equal(t, []string{"localhost:7683"}, pageHosts(tcp("127.0.0.1", 7683), ts, lan), "loopback stays loopback")
	assert.Equal(t, "laptop.tail1234.ts.net", certHost(&x509.Certificate{DNSNames: []string{"*.tail1234.ts.net", "laptop.tail1234.ts.net"}}))
	assert.Equal(t, "100.64.1.2", certHost(&x509.Certificate{IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1), net.IPv4(100, 64, 1, 2)}}))
	assert.Equal(t, "", certHost(&x509.Certificate{IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}}))
}

// The hub says where its page is: at --public-url when given (it printed
// the listener's address), else at its URL and every other address.
func TestPrintWhere(t *testing.T) {
	var b bytes.Buffer
	printWhere(&b, "http://192.168.1.20:7684/", "https://hub.example.net/", []string{"http://203.0.113.7:7684/"})
	assert.Equal(t, "askbridge: hub at https://hub.example.net/ (on this machine at http://192.168.1.20:7684/)\n", b.String())
	b.Reset()
	printWhere(&b, "http://192.168.1.20:7684/", "", []string{"http://203.0.113.7:7684/", "http://[2001:db8::7]:7684/"})
	assert.Equal(t, "askbridge: hub at http://192.168.1.20:7684/\naskbridge: also at http://203.0.113.7:7684/, http://[2001:db8::7]:7684/\n", b.String())
	b.Reset()
	printWhere(&b, "http://localhost:7683/", "", nil)
	assert.Equal(t, "askbridge: hub at http://localhost:7683/\n", b.String())
}

// askbridge hub pair's link is at --public-url when given, as the hub's
// terminal's is (it was the listener's address).
func TestPairURLIsThePublicURL(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	page := desk.New(ln, permission.NewBoard(), desk.Options{})
	t.Cleanup(func() { page.Close() })
	_, linked, _ := strings.Cut(page.PairURL("ABCD-EFGH-JKMN"), "#pair=")
	assert.True(t, strings.HasPrefix(linked, "ABCD-EFGH-JKMN-"), "the link carries the code and its letters: %s", linked)
	public := &codeShower{publicURL: "https://hub.example.net/"}
	assert.Equal(t, "https://hub.example.net/#pair="+linked, public.pairURL(page.PairURL)("ABCD-EFGH-JKMN"))
	local := &codeShower{}
	assert.Equal(t, page.URL()+"#pair="+linked, local.pairURL(page.PairURL)("ABCD-EFGH-JKMN"))
	assert.True(t, strings.HasPrefix(page.URL(), "http://localhost:"), page.URL())
}

// The QR code's colors are for a terminal that takes them: not a pipe or a
// log file, not with NO_COLOR, not on a dumb terminal.
func TestQRColor(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	assert.True(t, qrColor(true, env("TERM", "xterm-256color")))
	assert.False(t, qrColor(false, env("TERM", "xterm-256color")), "not a terminal")
	assert.False(t, qrColor(true, env("TERM", "xterm", "NO_COLOR", "1")), "NO_COLOR")
	assert.False(t, qrColor(true, env("TERM", "dumb")), "a dumb terminal")
}

// A QR code is drawn only of a link another device could open.
func TestPhoneReaches(t *testing.T) {
	for link, want := range map[string]bool{
		"https://desk.example.net/#pair=ABCD-EFGH": true,
		"https://box.tail1234.ts.net:7683/#pair=X": true,
		"http://192.168.1.20:7683/#pair=X":         true,
		"http://localhost:7683/#pair=X":            false,
		"https://LOCALHOST.:7683/":                 false,
		"http://app.localhost/":                    false,
		"http://127.0.0.1:7683/":                   false,
		"http://[::1]:7683/":                       false,
		"http://0.0.0.0:7683/":                     false,
		"::not a url":                              false,
	} {
		assert.Equal(t, want, phoneReaches(link), link)
	}
}
