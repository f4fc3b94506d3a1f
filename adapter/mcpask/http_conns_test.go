package mcpask

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/askbridge/askbridge/permission"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dialRaw opens a connection to the server behind url and drives it by
// hand.
func dialRaw(t *testing.T, url string) net.Conn {
	t.Helper()
	host := strings.TrimPrefix(strings.SplitN(url, PathPrefix, 2)[0], "http://")
	c, err := net.DialTimeout("tcp", host, 2*time.Second)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return c
}

// closedBy reports whether the server closed c by deadline.
func closedBy(c net.Conn, deadline time.Time) bool {
	c.SetReadDeadline(deadline)
	_, err := io.ReadAll(c)
	return err == nil || errors.Is(err, syscall.ECONNRESET)
}

// post sends one MCP initialize request on c with auth and reads the
// response.
func post(t *testing.T, c net.Conn, url, auth string) *http.Response {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`
	path := PathPrefix + strings.SplitN(url, PathPrefix, 2)[1]
	c.SetDeadline(time.Now().Add(5 * time.Second))
	_, err := fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n%s", path, auth, len(body), body)
	require.NoError(t, err)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	require.NoError(t, err)
	resp.Body.Close()
	return resp
}

// 300 idle connections without the token are not all held: beyond the
// strangers' pool they are closed at once, and the agent's request is
// answered within a second. (Before, every one was held.)
func TestHTTPStrangersAreBounded(t *testing.T) {
	f := startFakeBridge(t, answering("", "Redis"))
	s := newHTTP(t, f.path)
	url, token, err := s.Add("tag-1")
	require.NoError(t, err)
	var idle []net.Conn
	for range 300 {
		idle = append(idle, dialRaw(t, url))
	}
	start := time.Now()
	resp := post(t, dialRaw(t, url), url, "Bearer "+token)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Less(t, time.Since(start), time.Second)
	deadline := time.Now().Add(time.Second)
	closed := 0
	for _, c := range idle {
		if closedBy(c, deadline) {
			closed++
		}
	}
	assert.GreaterOrEqual(t, closed, 300-64, "at most the pool's 64 are held")
}

// A request refused 401 closes its connection; one that holds back its
// headers is closed after two seconds; a keep-alive connection with no
// request is closed after the idle timeout.
func TestHTTPConnectionsAreClosed(t *testing.T) {
	f := startFakeBridge(t, answering("", "Redis"))
	s := NewHTTP(f.path, permission.DefaultLimits(), nil)
	s.idle = 300 * time.Millisecond
	t.Cleanup(func() { s.Close() })
	url, token, err := s.Add("tag-1")
	require.NoError(t, err)

	refused := dialRaw(t, url)
	resp := post(t, refused, url, "Bearer wrong")
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	assert.True(t, resp.Close, "Connection: close")
	assert.True(t, closedBy(refused, time.Now().Add(time.Second)))

	slow := dialRaw(t, url)
	fmt.Fprintf(slow, "POST %stag-1 HTTP/1.1\r\nHost: 127.0.0.1\r\n", PathPrefix)
	start := time.Now()
	assert.True(t, closedBy(slow, time.Now().Add(4*time.Second)), "headers held back")
	assert.Greater(t, time.Since(start), time.Second)

	kept := dialRaw(t, url)
	assert.Equal(t, http.StatusOK, post(t, kept, url, "Bearer "+token).StatusCode)
	assert.True(t, closedBy(kept, time.Now().Add(2*time.Second)), "idle after its request")
}
