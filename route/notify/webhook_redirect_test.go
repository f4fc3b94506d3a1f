package notify

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/askbridge/askbridge/permission"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A delivery that fails logs the webhook's host, never its path (a public
// ntfy topic's only password), its query or its user.
func TestFailedDeliveryLogsTheHostOnly(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	l.Close() // nothing listens there now: the POST is refused

	b := permission.NewBoard()
	log, out := newLogger()
	start(t, b, Options{URL: "http://phil:s3cret@" + addr + "/secret-topic-4f2a?auth=q5", Timeout: 2 * time.Second, Logger: log})
	ask(b, "s", question("Q?", "H", "a", "b"))
	eventually(t, 3*time.Second, "the failure is logged", func() bool { return out.count("failed") == 1 })
	logged := out.String()
	assert.Contains(t, logged, addr, "the host says where it failed")
	for _, secret := range []string{"secret-topic-4f2a", "auth=q5", "phil", "s3cret"} {
		assert.NotContains(t, logged, secret)
	}
}

// No redirect is followed: the body (with the desk link and its token),
// the bearer token and the URL's password never reach the place a receiver
// points to, on another origin or on its own.
func TestWebhookFollowsNoRedirect(t *testing.T) {
	reached := make(chan received, 10)
	elsewhere := webhookServer(t, func(r received) { reached <- r })
	t.Setenv(TokenEnv, "tk_abc")
	for name, target := range map[string]func(self string) string{
		"another origin":  func(string) string { return elsewhere.URL + "/stolen?x=1" },
		"the same origin": func(self string) string { return self + "/moved" },
	} {
		t.Run(name, func(t *testing.T) {
			var self string
			redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/moved" {
					reached <- received{path: r.URL.Path, header: r.Header.Clone()}
					return
				}
				http.Redirect(w, r, target(self), http.StatusTemporaryRedirect) // 307 resends the body
			}))
			defer redirector.Close()
			self = redirector.URL
			w, err := NewWebhook("http://phil:s3cret@" + strings.TrimPrefix(redirector.URL, "http://") + "/topic")
			require.NoError(t, err)
			err = w.deliver(t.Context(), Event{Event: Asked, ID: "q1", DeskURL: deskURL, Questions: []permission.Question{question("Q?", "H", "a", "b")}})
			require.Error(t, err)
			assert.Contains(t, err.Error(), "follows no redirect")
			assert.NotContains(t, err.Error(), "stolen")
			assert.NotContains(t, err.Error(), "moved")
			assert.NotContains(t, err.Error(), "s3cret")
			select {
			case r := <-reached:
				t.Fatalf("the redirect was followed to %s with Authorization %q", r.path, r.header.Get("Authorization"))
			case <-time.After(100 * time.Millisecond):
			}
		})
	}
}
