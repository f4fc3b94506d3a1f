//go:build browser

package desk

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route/webpush"
	"github.com/askbridge/askbridge/route/webpush/webpushtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A paired page installs its service worker without asking for
// notification permission; with a subscription on a local push service
// (Chromium's own cannot reach one here), a question and an approval
// arrive as pushes the hub encrypted and signed, are shown as
// notifications tagged by their set, and decided on another device they
// are closed.
func TestBrowserPushComesAndGoes(t *testing.T) {
	needBrowser(t)
	dir := t.TempDir()
	keys, err := webpush.LoadKeys(filepath.Join(dir, "vapid.json"))
	require.NoError(t, err)
	store, err := webpush.OpenStore(filepath.Join(dir, "push.json"))
	require.NoError(t, err)
	service := webpushtest.Start(t)
	board := permission.NewBoard()
	var s *Server
	addr, roots := service.Trust()
	pusher := webpush.New(webpush.Options{Keys: keys, Store: store, Test: webpush.TestService{Addr: addr, Roots: roots}, DeviceOf: DeviceID,
		Paired: func() []string {
			var ids []string
			for _, d := range s.Devices().List() {
				ids = append(ids, d.ID)
			}
			return ids
		}})
	s, err = Listen("127.0.0.1:0", board, Options{Routes: pusher.Routes()})
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	defer pusher.Start(ctx, board)()
	defer cancel()

	feed := filepath.Join(dir, "feed.jsonl")
	code, _ := s.Devices().NewCode()
	cmd := exec.CommandContext(ctx, "node", "e2e/push.mjs", s.URL(), code, feed, "4")
	out := &lockedOut{}
	cmd.Stdout, cmd.Stderr = out, out
	require.NoError(t, cmd.Start())
	// Once the browser paired, its device gets the local service's
	// subscription, as PushManager.subscribe would give.
	require.Eventually(t, func() bool { return len(s.Devices().List()) > 0 }, 90*time.Second, 50*time.Millisecond, "the browser never paired: %s", out)
	require.NoError(t, store.Set(s.Devices().List()[0].ID, service.Subscribe("/push/browser")))

	relayed := 0
	relay := func(n int) { // hand the browser what the push service decrypted
		t.Helper()
		var got []webpushtest.Delivery
		require.Eventually(t, func() bool {
			var bad []string
			got, bad = service.Got()
			require.Empty(t, bad)
			return len(got) >= n
		}, 20*time.Second, 20*time.Millisecond)
		f, err := os.OpenFile(feed, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
		require.NoError(t, err)
		for _, d := range got[relayed:n] {
			f.Write(append(d.Payload, '\n'))
		}
		f.Close()
		relayed = n
	}
	q := board.Open(permission.Request{SessionID: "s1", Questions: []permission.Question{dbQ}, Round: 1})
	relay(1)
	a := &permission.Approval{ToolCall: json.RawMessage(`{"title":"git push","rawInput":{"command":"git push --force"}}`),
		Options: []permission.ApprovalOption{{OptionID: "ok", Name: "Allow", Kind: "allow_once"}, {OptionID: "no", Name: "Reject", Kind: "reject_once"}}}
	ap := board.Open(permission.Request{SessionID: "s1", Approval: a, Questions: []permission.Question{{Header: "Approval", Question: "git push", Kind: permission.Fixed,
		Options: []permission.Option{{Label: "Allow"}, {Label: "Reject"}}}}})
	relay(2)
	require.NoError(t, board.Settle(q.ID, permission.Result{Source: permission.SourceHub, Answers: []permission.Answered{{Question: dbQ, Answer: permission.Answer{Labels: []string{"SQLite"}}}}}, permission.ByEditor()))
	relay(3)
	require.NoError(t, board.Withdraw(ap.ID, "dismissed in the editor", permission.BySelf(permission.SourceClient)))
	relay(4)
	require.NoError(t, cmd.Wait(), out.String())
	got := out.String()
	t.Log(got)
	assert.Contains(t, got, "BUTTON Notify this device")
	assert.Contains(t, got, "PERMISSION default", "nothing asked before the user clicks")
	assert.Contains(t, got, "MANIFEST standalone")
	assert.Contains(t, got, "WORKER READY")
	assert.Contains(t, got, "SHOWN askbridge-"+q.ID+"|Database|Which database? / Choices: Postgres · SQLite")
	assert.Contains(t, got, "SHOWN askbridge-"+ap.ID+"|Approve? git push|git push --force / Choices: Allow · Reject")
	assert.Contains(t, got, "CLOSED askbridge-"+q.ID)
	assert.Contains(t, got, "CLOSED askbridge-"+ap.ID)
	assert.Contains(t, got, "DELIVERED 4")
}

// lockedOut is a process's output, read while it writes.
type lockedOut struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedOut) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedOut) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
