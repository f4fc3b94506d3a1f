package hubserve

import (
	"net"
	"testing"

	"github.com/stretchr/testify/assert"
)

// fakeLn is a listener at an address, for heldMatches.
type fakeLn struct {
	net.Listener
	addr net.Addr
}

func (f fakeLn) Addr() net.Addr { return f.addr }

func tcpLns(addrs ...string) []net.Listener {
	var out []net.Listener
	for _, a := range addrs {
		ta, err := net.ResolveTCPAddr("tcp", a)
		if err != nil {
			panic(err)
		}
		out = append(out, fakeLn{addr: ta})
	}
	return out
}

// The hub takes the manager's sockets only when they are what --listen
// names, all of it: a loopback port held on one family only leaves the
// other to another user.
func TestHeldMatchesListen(t *testing.T) {
	for _, c := range []struct {
		listen string
		held   []string
		v6     bool
		err    string
	}{
		{listen: "127.0.0.1:7683", held: []string{"127.0.0.1:7683", "[::1]:7683"}, v6: true},
		{listen: "localhost:7683", held: []string{"[::1]:7683", "127.0.0.1:7683"}, v6: true},
		{listen: "127.0.0.1:0", held: []string{"127.0.0.1:40001", "[::1]:40001"}, v6: true},
		{listen: "127.0.0.1:7683", held: []string{"127.0.0.1:7683"}, v6: false},
		{listen: "127.0.0.1:7683", held: []string{"127.0.0.1:7683"}, v6: true, err: "127.0.0.1:7683 and [::1]:7683, no more, no less"},
		{listen: "127.0.0.1:7683", held: []string{"127.0.0.1:7683", "[::1]:7684"}, v6: true, err: "no more, no less"},
		{listen: "127.0.0.1:0", held: []string{"127.0.0.1:40001", "[::1]:40002"}, v6: true, err: "no more, no less"},
		{listen: "127.0.0.1:7683", held: []string{"127.0.0.1:7683", "[::1]:7683", "127.0.0.1:7683"}, v6: true, err: "no more, no less"},
		{listen: "127.0.0.1:7683", held: []string{"0.0.0.0:7683"}, v6: true, err: "no more, no less"},
		{listen: "0.0.0.0:7683", held: []string{"0.0.0.0:7683"}, v6: true},
		{listen: ":7683", held: []string{"[::]:7683"}, v6: true},
		{listen: "100.64.1.2:7683", held: []string{"100.64.1.2:7683"}, v6: true},
		{listen: "100.64.1.2:7683", held: []string{"0.0.0.0:7683"}, v6: true, err: "no more, no less"},
		{listen: "laptop.ts.net:7683", held: []string{"100.64.1.2:7683"}, v6: true, err: "names a host"},
	} {
		err := heldMatches(c.listen, tcpLns(c.held...), c.v6)
		if c.err == "" {
			assert.NoError(t, err, "%s %v", c.listen, c.held)
		} else {
			assert.ErrorContains(t, err, c.err, "%s %v", c.listen, c.held)
		}
	}
	unix := fakeLn{addr: &net.UnixAddr{Name: "/tmp/x.sock", Net: "unix"}}
	assert.ErrorContains(t, heldMatches("127.0.0.1:7683", []net.Listener{unix}, true), "not a TCP socket")
}
