package desk

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/askbridge/askbridge/internal/pairing"
	"github.com/askbridge/askbridge/permission"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// openStream opens GET /event as the device of sess and returns its lines.
func openStream(t *testing.T, s *Server, sess pairing.Session) <-chan string {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", s.base()+"/event", nil)
	for k, v := range authHeaders(s, sess) {
		req.Header.Set(k, v)
	}
	resp, err := (&http.Client{Transport: &http.Transport{}}).Do(req)
	require.NoError(t, err)
	require.Equal(t, 200, resp.StatusCode)
	lines := make(chan string)
	go func() {
		defer close(lines)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	require.Equal(t, ": askbridge desk", <-lines, "subscribed")
	return lines
}

// A revoked device's open event stream ends at once, and sees no question
// asked after: it kept receiving every question before, whether revoked
// on the hub's socket (askbridge hub revoke) or from a page.
func TestARevokedDevicesEventStreamClosesAtOnce(t *testing.T) {
	for _, how := range []string{"askbridge hub revoke", "from a page"} {
		t.Run(how, func(t *testing.T) {
			s, board := newDesk(t, Options{})
			lost, sess, err := s.Devices().Add("lost phone", "", nil, nil, false)
			require.NoError(t, err)
			_, other, err := s.Devices().Add("laptop", "", nil, nil, false)
			require.NoError(t, err)
			lines := openStream(t, s, sess)
			if how == "from a page" {
				status, body := do(t, s, http.MethodDelete, "/api/devices/"+lost.ID, "", authHeaders(s, other))
				require.Equal(t, 200, status, body)
			} else {
				require.NoError(t, s.Devices().Revoke(lost.ID))
			}
			board.Open(permission.Request{SessionID: "s1", Questions: []permission.Question{dbQ}})
			deadline := time.After(3 * time.Second)
			for {
				select {
				case line, open := <-lines:
					if !open {
						return
					}
					assert.NotContains(t, line, "Which database?", "a question reached the revoked device")
				case <-deadline:
					t.Fatal("the revoked device's stream is still open")
				}
			}
		})
	}
}

// do as the page at localhost does, with any method.
func (l *localhost) do(method, path string, body any) (int, string) {
	l.t.Helper()
	b, _ := json.Marshal(body)
	req, err := http.NewRequest(method, l.s.base()+path, strings.NewReader(string(b)))
	require.NoError(l.t, err)
	req.Host = strings.TrimPrefix(l.origin(), "http://")
	req.Header.Set("Origin", l.origin())
	req.Header.Set(KeyHeader, l.key)
	if !readOnly(method) {
		require.NoError(l.t, Sign(req, l.mac))
	}
	resp, err := l.http.Do(req)
	require.NoError(l.t, err)
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(out)
}

// A page with a passkey revokes another device only with a user-verified
// assertion for that revocation: its session alone (taken from the
// browser's profile, say) cannot unpair the user's other devices. It did
// before. Revoking itself needs no passkey.
func TestRevokingAnotherDeviceTakesThisPagesPasskey(t *testing.T) {
	s, _ := newDesk(t, Options{})
	browser := newLocalhost(t, s)
	key := newSoftKey(t, browser.origin())
	require.Equal(t, 200, browser.pairWith(key, flagUP|flagUV))
	other, _, err := s.Devices().Add("phone", "", nil, nil, false)
	require.NoError(t, err)
	third, _, err := s.Devices().Add("tablet", "", nil, nil, false)
	require.NoError(t, err)
	challenge := func(target string) string {
		var opts struct{ PublicKey struct{ Challenge string } }
		require.Equal(t, 200, browser.post("/api/devices/"+target+"/presence", map[string]any{}, &opts))
		require.NotEmpty(t, opts.PublicKey.Challenge)
		return opts.PublicKey.Challenge
	}

	status, body := browser.do(http.MethodDelete, "/api/devices/"+other.ID, map[string]any{})
	assert.Equal(t, http.StatusForbidden, status, "the session alone: %s", body)
	ch := challenge(other.ID)
	status, _ = browser.do(http.MethodDelete, "/api/devices/"+other.ID, map[string]any{"assertion": key.get(t, ch, flagUP)})
	assert.Equal(t, http.StatusForbidden, status, "touched, not verified")
	ch = challenge(third.ID)
	status, _ = browser.do(http.MethodDelete, "/api/devices/"+other.ID, map[string]any{"assertion": key.get(t, ch, flagUP|flagUV)})
	assert.Equal(t, http.StatusForbidden, status, "asked for another device")
	assert.Len(t, s.Devices().List(), 3, "nothing revoked yet")

	ch = challenge(other.ID)
	status, body = browser.do(http.MethodDelete, "/api/devices/"+other.ID, map[string]any{"assertion": key.get(t, ch, flagUP|flagUV)})
	require.Equal(t, http.StatusOK, status, body)
	_, ok := s.Devices().Get(other.ID)
	assert.False(t, ok, "revoked with the passkey")

	me := s.Devices().List()[0]
	require.Equal(t, "test laptop", me.Name)
	status, body = browser.do(http.MethodDelete, "/api/devices/"+me.ID, map[string]any{})
	assert.Equal(t, http.StatusOK, status, "a page revokes itself with its session: %s", body)
}
