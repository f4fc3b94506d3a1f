package webpush

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route/webpush/webpushtest"
)

type pusherRig struct {
	push   *webpushtest.Service
	board  *permission.Board
	store  *Store
	keys   Keys
	mu     sync.Mutex
	paired []string
}

func newRig(t *testing.T) *pusherRig {
	dir := t.TempDir()
	keys, err := LoadKeys(filepath.Join(dir, "state", "vapid.json"))
	require.NoError(t, err)
	store, err := OpenStore(filepath.Join(dir, "state", "push.json"))
	require.NoError(t, err)
	r := &pusherRig{push: webpushtest.Start(t), board: permission.NewBoard(), store: store, keys: keys}
	p := New(Options{Keys: keys, Store: store, Test: trust(r.push),
		Paired: func() []string { r.mu.Lock(); defer r.mu.Unlock(); return append([]string(nil), r.paired...) },
		Where:  func(string) string { return "Claude Code · ~/src/api" }, Logger: slog.New(slog.NewTextHandler(os.Stderr, nil))})
	ctx, cancel := context.WithCancel(context.Background())
	wait := p.Start(ctx, r.board)
	t.Cleanup(func() { cancel(); wait() })
	return r
}

// trust lets a Pusher reach svc, on loopback, as no Pusher of the hub can.
func trust(svc *webpushtest.Service) TestService {
	addr, roots := svc.Trust()
	return TestService{Addr: addr, Roots: roots}
}

// delivery is a push the service took, its payload read.
type delivery struct {
	webpushtest.Delivery
	Message Message
}

func (r *pusherRig) wait(t *testing.T, n int) []delivery {
	t.Helper()
	var got []webpushtest.Delivery
	require.Eventually(t, func() bool {
		var bad []string
		got, bad = r.push.Got()
		require.Empty(t, bad, "the push service refused a push")
		return len(got) >= n
	}, 10*time.Second, 10*time.Millisecond, "want %d pushes", n)
	out := make([]delivery, len(got))
	for i, d := range got {
		out[i].Delivery = d
		require.NoError(t, json.Unmarshal(d.Payload, &out[i].Message))
	}
	return out
}

// A subscribed, paired device gets a push for a question, VAPID-signed and
// encrypted to its keys, carrying the question, its choices and the
// card's address; once the set is decided anywhere, a second push with the
// same tag and Topic withdraws it.
func TestAPushComesAndGoes(t *testing.T) {
	r := newRig(t)
	r.paired = []string{"phone"}
	require.NoError(t, r.store.Set("phone", r.push.Subscribe("/push/phone")))
	tk := r.board.Open(permission.Request{SessionID: "s", Questions: []permission.Question{{Header: "Database", Question: "Which database?",
		Options: []permission.Option{{Label: "Postgres"}, {Label: "SQLite"}}}}})
	got := r.wait(t, 1)
	m := got[0].Message
	assert.Equal(t, Message{Type: Asked, ID: tk.ID, Tag: "askbridge-" + tk.ID, Kind: permission.KindQuestion,
		Title: "Database — Claude Code · ~/src/api", Body: "Which database?", Choices: []string{"Postgres", "SQLite"}, URL: "/#q=" + tk.ID}, m)
	assert.Equal(t, r.keys.Public, got[0].VAPIDKey, "signed with the hub's VAPID key")
	assert.Equal(t, "high", got[0].Header.Get("Urgency"))
	assert.Equal(t, "askbridge-"+tk.ID, got[0].Header.Get("Topic"))

	require.NoError(t, r.board.Withdraw(tk.ID, "rejected", permission.BySelf(permission.SourceDesk)))
	got = r.wait(t, 2)
	assert.Equal(t, Message{Type: Decided, ID: tk.ID, Tag: "askbridge-" + tk.ID}, got[1].Message)
	assert.Equal(t, got[0].Header.Get("Topic"), got[1].Header.Get("Topic"), "the withdrawal replaces a push not delivered yet")
}

// An approval's push says what would run and the agent's choices; it is
// never an answer by itself.
func TestAnApprovalsPushShowsTheCommand(t *testing.T) {
	r := newRig(t)
	r.paired = []string{"phone"}
	require.NoError(t, r.store.Set("phone", r.push.Subscribe("/push/phone")))
	a := &permission.Approval{ToolCall: []byte(`{"title":"git push","rawInput":{"command":"git push --force"}}`),
		Options: []permission.ApprovalOption{{OptionID: "ok", Name: "Allow", Kind: "allow_once"}, {OptionID: "no", Name: "Reject", Kind: "reject_once"}}}
	r.board.Open(permission.Request{SessionID: "s", Approval: a, Questions: []permission.Question{{Header: "Approval", Question: "git push", Kind: permission.Fixed,
		Options: []permission.Option{{Label: "Allow"}, {Label: "Reject"}}}}})
	m := r.wait(t, 1)[0].Message
	assert.Equal(t, permission.KindApproval, m.Kind)
	assert.Equal(t, "Approve? git push — Claude Code · ~/src/api", m.Title)
	assert.Equal(t, "git push --force", m.Body)
	assert.Equal(t, []string{"Allow", "Reject"}, m.Choices)
}

// A revoked device's subscription goes with it: nothing more is sent to
// it, and the store no longer has it. One the push service says is gone
// (410) is dropped too.
func TestARevokedDeviceGetsNoPush(t *testing.T) {
	r := newRig(t)
	r.paired = []string{"phone", "laptop"}
	require.NoError(t, r.store.Set("phone", r.push.Subscribe("/push/phone")))
	require.NoError(t, r.store.Set("laptop", r.push.Subscribe("/push/laptop")))
	r.board.Open(permission.Request{SessionID: "s", Questions: []permission.Question{{Header: "H", Question: "First?", Options: []permission.Option{{Label: "a"}, {Label: "b"}}}}})
	r.wait(t, 2)
	r.mu.Lock()
	r.paired = []string{"laptop"} // the phone was revoked
	r.mu.Unlock()
	r.board.Open(permission.Request{SessionID: "s", Questions: []permission.Question{{Header: "H", Question: "Second?", Options: []permission.Option{{Label: "a"}, {Label: "b"}}}}})
	got := r.wait(t, 3)
	assert.Equal(t, "/push/laptop", got[2].Path)
	assert.False(t, r.store.Has("phone"), "the revoked device's subscription is gone")
	b, err := os.ReadFile(r.store.path)
	require.NoError(t, err)
	assert.NotContains(t, string(b), "/push/phone", "from the file too")

	r.push.SetStatus(http.StatusGone)
	r.board.Open(permission.Request{SessionID: "s", Questions: []permission.Question{{Header: "H", Question: "Third?", Options: []permission.Option{{Label: "a"}, {Label: "b"}}}}})
	r.wait(t, 4)
	require.Eventually(t, func() bool { return !r.store.Has("laptop") }, 5*time.Second, 10*time.Millisecond, "a subscription its service says is gone is dropped")
}

// The page's API: a device subscribes only with an https endpoint and both
// keys, sees its state, and turns push off for itself alone.
func TestThePushAPI(t *testing.T) {
	r := newRig(t)
	p := New(Options{Keys: r.keys, Store: r.store, Test: trust(r.push), DeviceOf: func(req *http.Request) string { return req.Header.Get("X-Device") }})
	routes := p.Routes()
	call := func(pattern, device, body string) (int, string) {
		method, _, _ := strings.Cut(pattern, " ")
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(method, "/api/push", strings.NewReader(body))
		req.Header.Set("X-Device", device)
		routes[pattern](rec, req)
		return rec.Code, rec.Body.String()
	}
	code, body := call("PUT /api/push", "phone", `{"endpoint":"http://push.example/x","keys":{"p256dh":"a","auth":"b"}}`)
	assert.Equal(t, 400, code, body)
	assert.Contains(t, body, "https only")
	code, body = call("PUT /api/push", "phone", `{"endpoint":"https://push.example/x","keys":{"p256dh":"a"}}`)
	assert.Equal(t, 400, code, body)
	sub := r.push.Subscribe("/push/phone")
	code, body = call("PUT /api/push", "phone", `{"endpoint":"`+sub.Endpoint+`","keys":{"p256dh":"`+sub.Keys.P256dh+`","auth":"`+sub.Keys.Auth+`"}}`)
	require.Equal(t, 200, code, body)
	require.NoError(t, r.store.Set("laptop", r.push.Subscribe("/push/laptop")))
	_, body = call("GET /api/push", "phone", "")
	assert.Contains(t, body, `"subscribed":true`)
	assert.Contains(t, body, r.keys.Public)
	code, _ = call("DELETE /api/push", "phone", "")
	assert.Equal(t, 200, code)
	assert.False(t, r.store.Has("phone"))
	assert.True(t, r.store.Has("laptop"), "off on one device only")
	if runtime.GOOS != "windows" {
		fi, err := os.Stat(r.store.path)
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	}
}
