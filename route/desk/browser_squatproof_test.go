//go:build browser

package desk

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The window b37d12b named: the hub proves itself to the tab and dies,
// and a squatter binds in the milliseconds before the request that
// follows. The squatter here holds the page's port and passes every
// proof on to a hub of the same key and devices (the hub just before it
// died), so every request the tab makes reaches it proved. What it
// catches it replays at the hub once that is back, and moves onto a
// revocation of the tab's device: all refused, and the tab goes live
// again. Before (the page sent its key once proved), the squatter held
// the session key and revoked the device.
func TestBrowserSquatterBetweenProofAndRequestGetsNothingReplayable(t *testing.T) {
	needBrowser(t)
	sc := newSquatScene(t)
	devices, key, board, port, s, stdin, saw := sc.devices, sc.key, sc.board, sc.port, sc.s, sc.stdin, sc.saw
	require.Len(t, devices.List(), 1)
	tab := devices.List()[0].ID

	s.Close()
	io.WriteString(stdin, "CLOSED\n")
	waitLine(t, saw, "NOT LIVE")
	dying, err := ListenTCP("127.0.0.1:0") // the hub, proving, in its last milliseconds
	require.NoError(t, err)
	before := New(dying, board, Options{Devices: devices, Key: key})
	sq := startProvingSquatter(t, port, "http://"+dying.Addr().String())
	io.WriteString(stdin, "DOWN\n")
	require.Eventually(t, func() bool { return sq.caughtPost() }, 30*time.Second, 50*time.Millisecond, "the tab's proved requests reach the squatter")
	sq.close()
	before.Close()

	s2 := New(mustListen(t, "127.0.0.1:"+port), board, Options{Devices: devices, Key: key})
	defer s2.Close()
	sq.mu.Lock()
	caught := sq.caught
	sq.mu.Unlock()
	t.Logf("the squatter caught %d requests, each proved against the hub", len(caught))
	for _, c := range caught {
		assert.Empty(t, c.Header.Get(KeyHeader), "the squatter got no session key")
		for _, replay := range []*http.Request{c.to(t, s2, c.Method, c.URL.RequestURI(), c.body), c.to(t, s2, "DELETE", "/api/devices/"+tab, nil)} {
			resp, err := http.DefaultClient.Do(replay)
			require.NoError(t, err)
			resp.Body.Close()
			assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, "%s %s, with what %s %s carried", replay.Method, replay.URL.Path, c.Method, c.URL.Path)
		}
	}
	_, still := devices.Get(tab)
	assert.True(t, still, "the tab's device is still paired")
	io.WriteString(stdin, "BACK\n")
	waitLine(t, saw, "LIVE AGAIN")
}

// provingSquatter is the squatter: it holds the page's port, passes /api/prove on
// to upstream, and keeps every other request it is sent.
type provingSquatter struct {
	srv    *http.Server
	mu     sync.Mutex
	caught []caughtRequest
}

type caughtRequest struct {
	*http.Request
	body []byte
}

func startProvingSquatter(t *testing.T, port, upstream string) *provingSquatter {
	sq := &provingSquatter{}
	sq.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/prove" {
			req, _ := http.NewRequest(http.MethodGet, upstream+r.URL.RequestURI(), nil)
			req.Host = r.Host
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadGateway)
				return
			}
			defer resp.Body.Close()
			io.Copy(w, resp.Body)
			return
		}
		body, _ := io.ReadAll(r.Body)
		sq.mu.Lock()
		sq.caught = append(sq.caught, caughtRequest{r.Clone(context.Background()), body})
		sq.mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream") // as the hub's stream, ended at once: the tab tries again
	})}
	go sq.srv.Serve(mustListen(t, "127.0.0.1:"+port))
	return sq
}

func (sq *provingSquatter) caughtPost() bool {
	sq.mu.Lock()
	defer sq.mu.Unlock()
	for _, c := range sq.caught {
		if c.Method == http.MethodPost {
			return true
		}
	}
	return false
}

func (sq *provingSquatter) close() { sq.srv.Close() }

// to is a request to s carrying what c carried: its cookie, session
// headers and proof.
func (c caughtRequest) to(t *testing.T, s *Server, method, path string, body []byte) *http.Request {
	req, err := http.NewRequest(method, s.base()+path, bytes.NewReader(body))
	require.NoError(t, err)
	for _, h := range []string{"Cookie", KeyHeader, TicketHeader, MACHeader} {
		if v := c.Header.Get(h); v != "" {
			req.Header.Set(h, v)
		}
	}
	req.Host = c.Host
	return req
}
