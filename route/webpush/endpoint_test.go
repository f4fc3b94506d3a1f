package webpush

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route/webpush/webpushtest"
)

// A paired page, or whoever holds a device's session, names the endpoint
// the hub connects to on every question: only a push service's public
// address is taken, each refusal a 400 saying what is wrong. The test
// service itself is taken on its own address and port alone. Failed
// before: every https endpoint was stored, 127.0.0.1, [::1] and
// 169.254.169.254 included, and the hub connected to them.
func TestOnlyAPublicEndpointIsStored(t *testing.T) {
	svc := webpushtest.Start(t)
	store, err := OpenStore("")
	require.NoError(t, err)
	p := New(Options{Store: store, Test: trust(svc), DeviceOf: func(*http.Request) string { return "phone" }})
	put := func(endpoint string) (int, string) {
		rec := httptest.NewRecorder()
		body := `{"endpoint":"` + endpoint + `","keys":{"p256dh":"a","auth":"b"}}`
		p.Routes()["PUT /api/push"](rec, httptest.NewRequest("PUT", "/api/push", strings.NewReader(body)))
		return rec.Code, rec.Body.String()
	}
	svcAddr, _ := svc.Trust()
	for endpoint, why := range map[string]string{
		"https://127.0.0.1/x":                    "127.0.0.1, a loopback address",
		"https://127.0.0.1:1/x":                  "a loopback address", // the test service's address on another port
		"https://[::1]:8443/x":                   "::1, a loopback address",
		"https://localhost/x":                    "localhost is at ", // 127.0.0.1 or ::1
		"https://169.254.169.254/latest":         "link-local",
		"https://10.1.2.3/x":                     "private",
		"https://172.16.0.1/x":                   "private",
		"https://192.168.1.1/x":                  "private",
		"https://100.64.0.1/x":                   "CGNAT",
		"https://0.0.0.0/x":                      "this network",
		"https://[::]/x":                         "unspecified",
		"https://224.0.0.1/x":                    "multicast",
		"https://[ff02::1]/x":                    "multicast",
		"https://[fd00::1]/x":                    "unique-local",
		"https://[fe80::1]/x":                    "link-local",
		"https://[::ffff:127.0.0.1]/x":           "loopback",
		"https://[::ffff:a9fe:a9fe]/x":           "link-local",
		"https://[64:ff9b::a00:1]/x":             "private",
		"https://[::127.0.0.1]/x":                "not a global unicast",
		"https://user:pass@push.example.com/x":   "user:pass@",
		"http://push.example.com/x":              "https only",
		"https:///x":                             "not an address",
		"https://no-such-host.askbridge.invalid": "cannot be resolved",
	} {
		code, body := put(endpoint)
		assert.Equal(t, http.StatusBadRequest, code, "%s: %s", endpoint, body)
		assert.Contains(t, body, why, endpoint)
	}
	assert.False(t, store.Has("phone"), "no refused endpoint was stored")

	for _, endpoint := range []string{"https://8.8.8.8/x", "https://[2606:4700::1111]/x", "https://127.0.0.1:" + portOf(svcAddr) + "/x"} {
		code, body := put(endpoint)
		assert.Equal(t, http.StatusOK, code, "%s: %s", endpoint, body)
	}
	code, body := put(strings.Repeat("x", 9<<10))
	assert.Equal(t, http.StatusBadRequest, code)
	assert.Contains(t, body, "over the limit of 8192 bytes")
}

func portOf(ap netip.AddrPort) string { return strings.TrimPrefix(ap.String(), ap.Addr().String()+":") }

// guardRig is a Pusher trusting the test service trusted, its log kept.
type guardRig struct {
	board *permission.Board
	store *Store
	log   *syncBuffer
}

func newGuardRig(t *testing.T, trusted *webpushtest.Service) *guardRig {
	keys, err := LoadKeys(filepath.Join(t.TempDir(), "vapid.json"))
	require.NoError(t, err)
	store, err := OpenStore("")
	require.NoError(t, err)
	g := &guardRig{board: permission.NewBoard(), store: store, log: &syncBuffer{}}
	p := New(Options{Keys: keys, Store: store, Test: trust(trusted), Paired: func() []string { return []string{"phone", "laptop"} },
		Logger: slog.New(slog.NewTextHandler(g.log, nil))})
	ctx, cancel := context.WithCancel(context.Background())
	wait := p.Start(ctx, g.board)
	t.Cleanup(func() { cancel(); wait() })
	return g
}

func (g *guardRig) ask() {
	g.board.Open(permission.Request{SessionID: "s", Questions: []permission.Question{{Header: "H", Question: "Which?", Options: []permission.Option{{Label: "a"}, {Label: "b"}}}}})
}

// A subscription already stored (a file of an older askbridge, or a name
// whose address changed since) is checked again at the address the hub
// dials: another loopback service, by name or by address, gets nothing,
// while the trusted one still gets its push. Failed before (no check when
// dialling): the other service got both.
func TestAPushDialsNoLoopbackAddress(t *testing.T) {
	trusted, other := webpushtest.Start(t), webpushtest.Start(t)
	g := newGuardRig(t, trusted)
	otherAddr, _ := other.Trust()
	require.NoError(t, g.store.Set("phone", trusted.Subscribe("/push/phone")))
	byName := other.Subscribe("/push/laptop")
	byName.Endpoint = "https://localhost:" + portOf(otherAddr) + "/push/laptop"
	require.NoError(t, g.store.Set("laptop", byName))
	g.ask()
	require.Eventually(t, func() bool { got, _ := trusted.Got(); return len(got) == 1 }, 10*time.Second, 10*time.Millisecond)
	require.Eventually(t, func() bool { return strings.Contains(g.log.String(), "refused to dial") }, 10*time.Second, 10*time.Millisecond, g.log.String())
	assert.Contains(t, g.log.String(), "a loopback address")

	require.NoError(t, g.store.Set("laptop", other.Subscribe("/push/laptop"))) // 127.0.0.1:its port
	g.ask()
	require.Eventually(t, func() bool { return strings.Count(g.log.String(), "refused to dial") == 2 }, 10*time.Second, 10*time.Millisecond, g.log.String())
	assert.Empty(t, other.Paths(), "the other service got no connection's request")
}

// A push service's answer is its last word: a redirect is not followed
// (it could send the hub anywhere). Failed before: the 307 was followed
// and the push posted again where it pointed.
func TestAPushFollowsNoRedirect(t *testing.T) {
	svc := webpushtest.Start(t)
	g := newGuardRig(t, svc)
	require.NoError(t, g.store.Set("phone", svc.Subscribe("/push/phone")))
	svc.Subscribe("/push/elsewhere")
	svc.Redirect("/push/elsewhere")
	g.ask()
	require.Eventually(t, func() bool { return strings.Contains(g.log.String(), "status=307") }, 10*time.Second, 10*time.Millisecond, g.log.String())
	assert.Equal(t, []string{"/push/phone"}, svc.Paths())
}

// notPublic takes the addresses push services are at.
func TestPublicAddresses(t *testing.T) {
	for _, a := range []string{"8.8.8.8", "142.250.1.95", "2a00:1450:4001:80b::200a", "64:ff9b::808:808", "::ffff:8.8.4.4"} {
		assert.Empty(t, notPublic(netip.MustParseAddr(a)), a)
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
