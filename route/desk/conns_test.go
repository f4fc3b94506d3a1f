package desk

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"github.com/askbridge/askbridge/internal/pairing"
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

// rawConn is a client connection to the desk driven by hand, so a test
// sees when the desk closes it.
type rawConn struct {
	net.Conn
	r *bufio.Reader
}

func dialDesk(t *testing.T, s *Server) *rawConn {
	t.Helper()
	c, err := net.DialTimeout("tcp", s.ln.Addr().String(), 2*time.Second)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return &rawConn{Conn: c, r: bufio.NewReader(c)}
}

// get sends a keep-alive GET and reads its response.
func (c *rawConn) get(t *testing.T, path string, sess map[string]string) *http.Response {
	t.Helper()
	auth := ""
	for k, v := range sess {
		auth += k + ": " + v + "\r\n"
	}
	c.SetDeadline(time.Now().Add(5 * time.Second))
	_, err := fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\n%s\r\n", path, c.RemoteAddr(), auth)
	require.NoError(t, err)
	resp, err := http.ReadResponse(c.r, nil)
	require.NoError(t, err)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

// closedWithin reports whether the desk closes the connection within d.
func (c *rawConn) closedWithin(d time.Duration) error {
	c.SetReadDeadline(time.Now().Add(d))
	_, err := c.r.ReadByte()
	switch {
	case err == nil:
		return errors.New("the desk sent more bytes instead of closing")
	case errors.Is(err, io.EOF), errors.Is(err, syscall.ECONNRESET):
		return nil
	}
	return fmt.Errorf("still open after %s: %w", d, err)
}

func TestIdleConnectionsAreClosed(t *testing.T) {
	s, _ := newDesk(t, Options{IdleTimeout: 200 * time.Millisecond, RequestTimeout: 300 * time.Millisecond})
	served := dialDesk(t, s)
	assert.Equal(t, 200, served.get(t, "/question", authHeaders(s, sessionOf(t, s))).StatusCode)
	assert.NoError(t, served.closedWithin(3*time.Second), "a keep-alive connection after its request")

	silent := dialDesk(t, s)
	assert.NoError(t, silent.closedWithin(3*time.Second), "a connection that never sends a request")

	slow := dialDesk(t, s)
	fmt.Fprintf(slow, "POST /question/q1/reply HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: %s=%s\r\nContent-Length: 100\r\n\r\n{", s.cookieName(), sessionOf(t, s).Cookie)
	assert.NoError(t, slow.endedWithin(3*time.Second), "a request whose body never comes")
}

// endedWithin is closedWithin for a connection whose request the desk could
// not read to its end: it may first say so (an error status), as long as
// it closes the connection after.
func (c *rawConn) endedWithin(d time.Duration) error {
	deadline := time.Now().Add(d)
	c.SetReadDeadline(deadline)
	if _, err := c.r.Peek(1); err == nil {
		resp, err := http.ReadResponse(c.r, nil)
		if err != nil {
			return fmt.Errorf("bytes that are no response: %w", err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode < 400 {
			return fmt.Errorf("the desk answered %d to a request it could not read", resp.StatusCode)
		}
	}
	return c.closedWithin(time.Until(deadline))
}

func TestUnauthenticatedConnectionsAreClosed(t *testing.T) {
	s, _ := newDesk(t, Options{}) // the default idle timeout is far longer than the test waits
	for _, tt := range []struct {
		name, path string
		sess       map[string]string
	}{
		{"no session", "/question", nil},
		{"wrong session", "/question", map[string]string{"Cookie": s.cookieName() + "=x.y", KeyHeader: "z"}},
		{"unknown file without a session", "/secret", nil},
	} {
		c := dialDesk(t, s)
		resp := c.get(t, tt.path, tt.sess)
		assert.Equal(t, 401, resp.StatusCode, tt.name)
		assert.True(t, resp.Close, tt.name+": Connection: close")
		assert.NoError(t, c.closedWithin(2*time.Second), tt.name)
	}
	c := dialDesk(t, s)
	assert.Equal(t, 200, c.get(t, "/question", authHeaders(s, sessionOf(t, s))).StatusCode)
	assert.Equal(t, 200, c.get(t, "/question", authHeaders(s, sessionOf(t, s))).StatusCode, "an authorised connection is kept alive")
}

// 300 idle connections that never authenticate do not lock the user out:
// an authenticated request is answered within a second, on a new
// connection as on one it holds. (Before the pool, 64 held every place and
// the user got 503.)
func TestStrangersCannotLockOutTheUser(t *testing.T) {
	s, _ := newDesk(t, Options{})
	held := dialDesk(t, s)
	assert.Equal(t, 200, held.get(t, "/question", authHeaders(s, sessionOf(t, s))).StatusCode)
	for i := range 300 {
		c := dialDesk(t, s)
		if i%2 == 0 {
			fmt.Fprintf(c, "GET /question HTTP/1.1\r\nHost: 127.0.0.1\r\n") // headers begun, never ended
		}
	}
	start := time.Now()
	code, err := tryGet(s, "/question")
	require.NoError(t, err)
	assert.Equal(t, 200, code)
	assert.Less(t, time.Since(start), time.Second)
	start = time.Now()
	assert.Equal(t, 200, held.get(t, "/question", authHeaders(s, sessionOf(t, s))).StatusCode, "the connection it held is still its own")
	assert.Less(t, time.Since(start), time.Second)
}

// The strangers' pool is bounded: a new stranger beyond it closes the
// oldest; connections that authenticated stay.
func TestStrangersArePooled(t *testing.T) {
	s, _ := newDesk(t, Options{MaxConns: 4})
	var mine []*rawConn
	for range 4 {
		c := dialDesk(t, s)
		assert.Equal(t, 200, c.get(t, "/question", authHeaders(s, sessionOf(t, s))).StatusCode)
		mine = append(mine, c)
	}
	var strangers []*rawConn
	for range 5 {
		strangers = append(strangers, dialDesk(t, s))
		time.Sleep(20 * time.Millisecond) // accepted in this order
	}
	assert.NoError(t, strangers[0].closedWithin(time.Second), "the oldest stranger makes room")
	for _, c := range mine {
		assert.Equal(t, 200, c.get(t, "/question", authHeaders(s, sessionOf(t, s))).StatusCode)
	}
	// A page fetched without credentials leaves its connection a stranger.
	page := strangers[4]
	resp := page.get(t, "/", nil)
	assert.Equal(t, 200, resp.StatusCode)
	for range 4 {
		dialDesk(t, s)
		time.Sleep(20 * time.Millisecond)
	}
	assert.NoError(t, page.closedWithin(time.Second))
}

// A connection that holds back its headers is closed after
// connpool.HeaderTimeout, not the request timeout.
func TestHeadersComeWithinTwoSeconds(t *testing.T) {
	s, _ := newDesk(t, Options{RequestTimeout: time.Minute, IdleTimeout: time.Minute})
	c := dialDesk(t, s)
	fmt.Fprintf(c, "GET /question HTTP/1.1\r\nHost: 127.0.0.1\r\n")
	start := time.Now()
	assert.NoError(t, c.endedWithin(4*time.Second))
	assert.Greater(t, time.Since(start), time.Second)
}

func tryGet(s *Server, path string) (int, error) {
	req, _ := http.NewRequest("GET", s.base()+path, nil)
	sess, _ := testSessions.Load(s)
	for k, v := range authHeaders(s, sess.(pairing.Session)) {
		req.Header.Set(k, v)
	}
	req.Close = true
	resp, err := (&http.Client{Timeout: 2 * time.Second}).Do(req)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

// The event stream is the one long request: the request timeout must not
// end it.
func TestEventStreamOutlivesTheRequestTimeout(t *testing.T) {
	s, board := newDesk(t, Options{RequestTimeout: 150 * time.Millisecond, IdleTimeout: 150 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", s.base()+"/event", nil)
	sign(t, s, req)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	require.True(t, sc.Scan())
	time.Sleep(600 * time.Millisecond)
	board.Open(permission.Request{SessionID: "late", Questions: []permission.Question{dbQ}})
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "event: question.asked") {
			return
		}
	}
	t.Fatalf("the stream ended before the event: %v", sc.Err())
}
