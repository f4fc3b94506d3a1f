package desk

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/testkit/testcert"
)

// A TLS desk (the hub beyond loopback) shares its places for connections
// without a session fairly between source addresses: 29 addresses
// (127.0.0.2 to .30: every 127.0.0.0/8 address is loopback on Linux)
// churning connections as fast as they can do not keep the paired owner,
// at another address, from getting through on new connections. Before,
// each newcomer closed the oldest stranger, the owner's handshakes among
// them.
func TestChurningAddressesDoNotEvictThePairedOwner(t *testing.T) {
	certFile, keyFile, roots := testcert.Write(t)
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	d := New(ln, permission.NewBoard(), Options{AllowRemote: true,
		TLS: &tls.Config{Certificates: []tls.Certificate{cert}}})
	defer d.Close()
	addr := ln.Addr().String()

	ctx, stop := context.WithCancel(context.Background())
	var churned sync.WaitGroup
	var mu sync.Mutex
	dials := 0
	for i := 2; i <= 30; i++ {
		dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, byte(i))}, Timeout: time.Second}
		for range 8 {
			churned.Add(1)
			go func() {
				defer churned.Done()
				for ctx.Err() == nil {
					c, err := dialer.DialContext(ctx, "tcp", addr)
					if err != nil {
						continue
					}
					mu.Lock()
					dials++
					mu.Unlock()
					c.SetReadDeadline(time.Now().Add(time.Second))
					io.Copy(io.Discard, c) // until the desk closes it
					c.Close()
				}
			}()
		}
	}
	defer func() { stop(); churned.Wait() }()
	require.Eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return dials > 500 }, 10*time.Second, 10*time.Millisecond, "the churn is under way")

	sess := sessionOf(t, d)
	failed := 0
	for i := range 10 {
		// A new connection each time, as a browser's after a wake-up.
		c := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DisableKeepAlives: true, TLSClientConfig: &tls.Config{RootCAs: roots}}}
		req, _ := http.NewRequest("GET", "https://"+addr+"/question", nil)
		for k, v := range authHeaders(d, sess) {
			req.Header.Set(k, v)
		}
		resp, err := c.Do(req)
		if err != nil {
			failed++
			t.Log(fmt.Sprintf("request %d: %v", i, err))
			continue
		}
		resp.Body.Close()
		assert.Equal(t, http.StatusOK, resp.StatusCode)
	}
	assert.Zero(t, failed, "the owner's connections were closed by the churn")
}
