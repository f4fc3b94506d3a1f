package notify

import (
	"bytes"
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askbridge/askbridge/permission"
	"github.com/stretchr/testify/require"
)

// deskURL is the desk's address as a notifier is given it, with a
// credential that must never reach a notification; deskPage is what
// notifications link to.
const (
	deskURL  = "http://127.0.0.1:7777/?token=secret"
	deskPage = "http://127.0.0.1:7777/"
)

// logs is a logger's output, safe to read while the notifier writes.
type logs struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logs) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logs) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// count is how many log lines contain s.
func (l *logs) count(s string) int {
	n := 0
	for _, line := range strings.Split(l.String(), "\n") {
		if strings.Contains(line, s) {
			n++
		}
	}
	return n
}

func newLogger() (*slog.Logger, *logs) {
	l := &logs{}
	return slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelDebug})), l
}

func question(text, header string, labels ...string) permission.Question {
	q := permission.Question{Question: text, Header: header}
	for _, l := range labels {
		q.Options = append(q.Options, permission.Option{Label: l, Description: "about " + l})
	}
	return q
}

func ask(b *permission.Board, session string, qs ...permission.Question) *permission.Ticket {
	round, _ := b.NextRound(session, 0)
	return b.Open(permission.Request{SessionID: session, ToolCallID: "call_1", Questions: qs, Round: round})
}

// start runs a notifier on b until the test ends.
func start(t *testing.T, b *permission.Board, opts Options) *Notifier {
	t.Helper()
	n, err := Start(b, opts)
	require.NoError(t, err)
	t.Cleanup(n.Close)
	return n
}

// waitFile returns path's content once it exists and is not empty, failing
// the test after within.
func waitFile(t *testing.T, path string, within time.Duration) []byte {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		if b, err := os.ReadFile(path); err == nil && len(b) > 0 && bytes.HasSuffix(b, []byte("\n")) {
			return b
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not appear within %s", path, within)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// eventually waits for cond, failing the test after within.
func eventually(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, within)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
