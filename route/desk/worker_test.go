package desk

import (
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// workerGet asks s for path as the browser asks for a worker's script.
func workerGet(t *testing.T, s *Server, path string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, s.base()+path, nil)
	require.NoError(t, err)
	req.Header.Set("Service-Worker", "script")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// A worker's script the desk did not serve, asked for again by the
// browser's update check, is answered with the one that removes it,
// allowed the widest scope; the removal is logged and listed; its link
// back clears the origin's cache and storage, once. The desk's own
// worker is served as it is, with its version, the same each run.
func TestAForeignWorkerIsReplacedByOneThatRemovesIt(t *testing.T) {
	logs := &logBuf{}
	s, _ := newDesk(t, Options{Logger: slog.New(slog.NewTextHandler(logs, nil))})
	for _, path := range []string{"/evil-sw.js", "/x/sw.js", "/sw.js?v=1", "/"} {
		resp, body := workerGet(t, s, path)
		assert.Equal(t, http.StatusOK, resp.StatusCode, path)
		assert.Contains(t, body, "registration.unregister()", path)
		assert.Equal(t, "/", resp.Header.Get("Service-Worker-Allowed"), path)
		assert.Contains(t, resp.Header.Get("Content-Type"), "javascript", path)
	}
	// at once, or within the second when another was noted just before (alarm.Note)
	assert.Eventually(t, func() bool { return strings.Contains(logs.String(), "removed a service worker") }, 3*time.Second, 20*time.Millisecond, "the desk says so in its log")

	resp, own := workerGet(t, s, workerPath)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.NotContains(t, own, "registration.unregister()")
	assert.Contains(t, own, `const VERSION = "`+workerVersion+`"`)
	_, again := workerGet(t, s, workerPath)
	assert.Equal(t, own, again, "the same bytes each time: an update check replaces only another worker")

	status, state := do(t, s, http.MethodGet, "/api/worker", "", map[string]string{KeyHeader: "", "Cookie": ""})
	assert.Equal(t, http.StatusOK, status)
	assert.Contains(t, state, `"version":"`+workerVersion+`"`)
	assert.Contains(t, state, `"script":"/evil-sw.js"`)

	_, removal := workerGet(t, s, "/evil-sw.js")
	_, token, _ := strings.Cut(removal, removedParam+"=")
	token = token[:strings.IndexAny(token, `"&`)]
	page := func(query string) string {
		resp, err := http.Get(s.base() + "/?" + query)
		require.NoError(t, err)
		resp.Body.Close()
		return resp.Header.Get("Clear-Site-Data")
	}
	assert.Empty(t, page(removedParam+"=forged"), "no link but a removal's clears the origin")
	assert.Equal(t, `"cache", "storage"`, page(removedParam+"="+token), "cookies are left: they are every port's")
	assert.Empty(t, page(removedParam+"="+token), "once")
}

// logBuf keeps what a logger wrote, for any goroutine.
type logBuf struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *logBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
