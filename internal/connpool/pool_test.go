package connpool

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeListener hands out one end of a pipe per dial, with the remote
// address the dial names: a test can come from any address.
type fakeListener struct{ conns chan net.Conn }

func (l *fakeListener) Accept() (net.Conn, error) {
	c, ok := <-l.conns
	if !ok {
		return nil, net.ErrClosed
	}
	return c, nil
}
func (l *fakeListener) Close() error   { return nil }
func (l *fakeListener) Addr() net.Addr { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 1} }

type addrConn struct {
	net.Conn
	remote net.Addr
}

func (c addrConn) RemoteAddr() net.Addr { return c.remote }

// dial makes a connection from ip to the pool's listener and says
// whether it was accepted; one turned away must have been answered 503.
func dial(t *testing.T, in *fakeListener, accepted <-chan net.Conn, ip string) bool {
	t.Helper()
	client, server := net.Pipe()
	t.Cleanup(func() { client.Close() })
	answered := make(chan int, 1)
	go func() {
		resp, err := http.ReadResponse(bufio.NewReader(client), nil)
		if err == nil {
			answered <- resp.StatusCode
		}
	}()
	in.conns <- addrConn{Conn: server, remote: &net.TCPAddr{IP: net.ParseIP(ip), Port: 40000}}
	select {
	case c := <-accepted:
		t.Cleanup(func() { c.Close() })
		return true
	case code := <-answered:
		assert.Equal(t, 503, code)
		return false
	case <-time.After(15 * time.Second): // a deadline, not a measure: a loaded machine takes seconds
		t.Fatal("neither accepted nor answered")
		return false
	}
}

// Beyond loopback an address (an IPv6 /64) holds at most PerAddr
// strangers; others are not hindered, and loopback has no such limit.
func TestPerAddressLimitBeyondLoopback(t *testing.T) {
	in := &fakeListener{conns: make(chan net.Conn)}
	p := New(Options{Strangers: 100, PerAddr: 2})
	ln := p.Listener(in)
	accepted := make(chan net.Conn)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	defer close(in.conns)
	for _, c := range []struct {
		ip     string
		admits bool
	}{
		{"192.0.2.1", true}, {"192.0.2.1", true}, {"192.0.2.1", false},
		{"192.0.2.2", true},
		{"2001:db8::1", true}, {"2001:db8::ffff", true}, {"2001:db8::2", false},
		{"2001:db8:0:1::1", true},
		{"127.0.0.1", true}, {"127.0.0.1", true}, {"127.0.0.1", true}, {"::1", true},
	} {
		got := dial(t, in, accepted, c.ip)
		assert.Equal(t, c.admits, got, c.ip)
	}
	assert.Equal(t, 10, p.Strangers())
}

// A stranger that authenticates leaves the pool: its address may bring
// others, and no newcomer displaces it.
func TestTrustedConnectionsLeaveThePool(t *testing.T) {
	p := New(Options{Strangers: 2, PerAddr: 1})
	srv := httptest.NewUnstartedServer(p.Handler(func(r *http.Request) bool { return r.Header.Get("X-Key") == "k" },
		http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") })))
	p.Server(srv.Config)
	srv.Listener = p.Listener(srv.Listener)
	srv.Start()
	t.Cleanup(srv.Close)
	assert.Equal(t, HeaderTimeout, srv.Config.ReadHeaderTimeout)

	mine, err := net.Dial("tcp", srv.Listener.Addr().String())
	require.NoError(t, err)
	defer mine.Close()
	r := bufio.NewReader(mine)
	get := func(key string) int {
		mine.SetDeadline(time.Now().Add(2 * time.Second))
		_, err := io.WriteString(mine, "GET / HTTP/1.1\r\nHost: x\r\nX-Key: "+key+"\r\n\r\n")
		require.NoError(t, err)
		resp, err := http.ReadResponse(r, nil)
		require.NoError(t, err)
		io.Copy(io.Discard, resp.Body)
		return resp.StatusCode
	}
	require.Equal(t, 200, get("k"))
	require.Eventually(t, func() bool { return p.Strangers() == 0 }, time.Second, 5*time.Millisecond)
	for range 10 {
		c, err := net.Dial("tcp", srv.Listener.Addr().String())
		require.NoError(t, err)
		defer c.Close()
	}
	require.Eventually(t, func() bool { return p.Strangers() == 2 }, time.Second, 5*time.Millisecond)
	assert.Equal(t, 200, get("wrong"), "still served, on its own connection")
}
