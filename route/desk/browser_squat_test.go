//go:build browser

package desk

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/internal/hubkey"
	"github.com/askbridge/askbridge/internal/pairing"
	"github.com/askbridge/askbridge/permission"
)

// Restart squat: the hub is down (killed), and another process holds its
// port; the open tab retries. It asks the server to sign its nonce with
// the key it kept from pairing before it sends its session key, and the
// squatter, signing with a key of its own, gets no session key, however
// often the tab tries: only the cookie, which the browser sends to every
// port of the host by itself and which is no session alone. Once the hub
// is back on its port the tab goes live again, unpaired nothing. Before
// (no proof) the tab's first retry handed the squatter cookie and key,
// and the session worked once the hub was back.
func TestBrowserSendsNoSessionToASquatter(t *testing.T) {
	needBrowser(t)
	sc := newSquatScene(t)
	devices, key, board, port, s, stdin, saw := sc.devices, sc.key, sc.board, sc.port, sc.s, sc.stdin, sc.saw

	s.Close() // the hub is killed
	// The squatter binds once the tab has seen the hub go; this test holds
	// the tab's retries. One that binds in the milliseconds between a
	// proof the hub gave and the request after it is
	// TestBrowserSquatterBetweenProofAndRequestGetsNothingReplayable.
	io.WriteString(stdin, "CLOSED\n")
	waitLine(t, saw, "NOT LIVE")
	sq := startSquatter(t, port)
	io.WriteString(stdin, "DOWN\n")
	require.Eventually(t, func() bool { return sq.seen() >= 3 }, 30*time.Second, 50*time.Millisecond, "the tab retries")
	sq.close()

	s2 := New(mustListen(t, "127.0.0.1:"+port), board, Options{Devices: devices, Key: key})
	defer s2.Close()
	io.WriteString(stdin, "BACK\n")
	waitLine(t, saw, "LIVE AGAIN")

	sq.mu.Lock()
	defer sq.mu.Unlock()
	assert.Empty(t, sq.keys, "the squatter got no session key")
	assert.Positive(t, sq.proofs, "the tab asked the squatter for a proof")
	assert.Empty(t, sq.proofCookies, "a proof is asked without the cookie")
}

func waitLine(t *testing.T, saw <-chan string, want string) {
	t.Helper()
	for line := range saw {
		if line == want {
			return
		}
	}
	t.Fatalf("the browser never said %q", want)
}

func mustListen(t *testing.T, addr string) net.Listener {
	var ln net.Listener
	require.Eventually(t, func() bool {
		var err error
		ln, err = ListenTCP(addr)
		return err == nil
	}, 10*time.Second, 50*time.Millisecond)
	return ln
}

// squatter holds the port: it serves the page's API as the hub would,
// signs proofs with a key of its own, and keeps what it was sent.
type squatter struct {
	srv          *http.Server
	mu           sync.Mutex
	proofs       int
	requests     int
	proofCookies []string
	keys         []string
}

func startSquatter(t *testing.T, port string) *squatter {
	_, own, _ := ed25519.GenerateKey(rand.Reader)
	sq := &squatter{}
	sq.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sq.mu.Lock()
		sq.requests++
		if k := r.Header.Get(KeyHeader); k != "" {
			sq.keys = append(sq.keys, k)
		}
		if r.URL.Path == "/api/prove" {
			sq.proofs++
			if c := r.Header.Get("Cookie"); c != "" {
				sq.proofCookies = append(sq.proofCookies, c)
			}
		}
		sq.mu.Unlock()
		if r.URL.Path == "/api/prove" {
			nonce, _ := base64.RawURLEncoding.DecodeString(r.URL.Query().Get("nonce"))
			msg := hubkey.PageContext + "\n" + r.Host + "\n" + base64.RawURLEncoding.EncodeToString(nonce)
			json.NewEncoder(w).Encode(map[string]string{"sig": base64.RawURLEncoding.EncodeToString(ed25519.Sign(own, []byte(msg)))})
			return
		}
		w.Header().Set("Content-Type", "text/event-stream") // as the hub's stream, ended at once: the tab tries again
	})}
	go sq.srv.Serve(mustListen(t, "127.0.0.1:"+port))
	return sq
}

func (sq *squatter) seen() int {
	sq.mu.Lock()
	defer sq.mu.Unlock()
	return sq.requests
}

func (sq *squatter) close() { sq.srv.Close() }

// squatScene is a desk paired with a Chromium tab (e2e/squat.mjs) that is
// live: the tab's stdin takes the test's cues, saw has its lines.
type squatScene struct {
	devices *pairing.Devices
	key     *hubkey.Key
	board   *permission.Board
	port    string
	s       *Server
	stdin   io.WriteCloser
	saw     chan string
}

func newSquatScene(t *testing.T) *squatScene {
	sc := &squatScene{devices: pairing.Memory(), key: hubkey.Generate(), board: permission.NewBoard(), saw: make(chan string, 64)}
	ln, err := ListenTCP("127.0.0.1:0")
	require.NoError(t, err)
	_, sc.port, _ = net.SplitHostPort(ln.Addr().String())
	sc.s = New(ln, sc.board, Options{Devices: sc.devices, Key: sc.key})
	code, _ := sc.devices.NewCode()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	node := exec.CommandContext(ctx, "node", "e2e/squat.mjs", sc.s.URL(), code)
	sc.stdin, err = node.StdinPipe()
	require.NoError(t, err)
	stdout, err := node.StdoutPipe()
	require.NoError(t, err)
	node.Stderr = node.Stdout
	require.NoError(t, node.Start())
	t.Cleanup(func() { sc.stdin.Close(); node.Process.Kill(); node.Wait() })
	go func() {
		lines := bufio.NewScanner(stdout)
		for lines.Scan() {
			t.Log(lines.Text())
			sc.saw <- lines.Text()
		}
		close(sc.saw)
	}()
	waitLine(t, sc.saw, "LIVE")
	return sc
}
