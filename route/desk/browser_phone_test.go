//go:build browser

package desk

import (
	"encoding/json"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/askbridge/askbridge/internal/decisions"
	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route/webpush"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hangingService is a push service that takes connections and never
// answers, as one behind a network that swallows its packets: the
// browser's subscribe() would wait on it for ever.
func hangingService(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	done := make(chan struct{})
	go func() {
		var held []net.Conn
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
			select {
			case <-done:
				return
			default:
			}
		}
	}()
	t.Cleanup(func() { close(done); ln.Close() })
	return ln.Addr().(*net.TCPAddr).Port
}

// In Chromium as an Android phone (390 × 844) on the hub's page (its push
// and decisions routes), with the push service unreachable: the device is
// named from the platform and the pairing form says its code is filled
// in; the approval card has exactly one yes and one plain no, its
// description as prose and its command as a command, and the reason's
// placeholder fits; every status a tap produces is inside the viewport,
// and a result goes when a new card comes; "Notify this device" says
// "Subscribing…" and ends, within its bound, saying why with a retry; the
// decisions read as sentences without a digest. ASKBRIDGE_SCREENSHOT_DIR
// keeps the phone's screens (phone-*.png).
func TestBrowserPhoneAlwaysAnswersBack(t *testing.T) {
	needBrowser(t)
	dir := t.TempDir()
	keys, err := webpush.LoadKeys(filepath.Join(dir, "vapid.json"))
	require.NoError(t, err)
	store, err := webpush.OpenStore(filepath.Join(dir, "push.json"))
	require.NoError(t, err)
	pusher := webpush.New(webpush.Options{Keys: keys, Store: store, DeviceOf: DeviceID, Paired: func() []string { return nil }})
	routes := pusher.Routes()
	digest := "sha256:9f2c0123456789abcdef0123456789abcdef0123456789abcdef0123456789ab"
	routes["GET /api/decisions"] = func(w http.ResponseWriter, r *http.Request) {
		at := time.Now().Add(-time.Minute)
		json.NewEncoder(w).Encode([]decisions.Record{
			{Time: at, Agent: "Claude Code", CWD: "~/src/api", Set: "a1", Kind: permission.KindApproval, Asked: "git push", Digest: digest,
				Outcome: permission.StateAnswered, Answer: "Allow", Route: permission.SourceHub, Device: "Chrome on Android", WaitedMs: 12000,
				Signed: &permission.Signed{}},
			{Time: at, Agent: "Codex", CWD: "~/src/web", Set: "q1", Kind: permission.KindQuestion, Asked: "Port: Which port?",
				Outcome: permission.StateAnswered, Answer: "Port → 3000", Route: permission.SourceClient, WaitedMs: 3000},
		})
	}
	board := permission.NewBoard()
	s, err := Listen("127.0.0.1:0", board, Options{Routes: routes})
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })

	// Claude's Bash approval: the description is the tool call's text.
	a := &permission.Approval{ToolCall: json.RawMessage(`{"toolCallId":"t1","kind":"execute","title":"rm -rf build","rawInput":{"command":"rm -rf build","description":"Remove the build directory"},"content":[{"type":"content","content":{"type":"text","text":"Remove the build directory"}}]}`),
		Options: []permission.ApprovalOption{{OptionID: "always", Name: "Always Allow", Kind: "allow_always"}, {OptionID: "once", Name: "Allow", Kind: "allow_once"}, {OptionID: "no", Name: "Reject", Kind: "reject_once"}}}
	ap := board.Open(permission.Request{SessionID: "s1", ToolCallID: "t1", Approval: a, Questions: []permission.Question{{
		Header: "Approval: execute", Question: "rm -rf build", Kind: permission.Fixed,
		Options: []permission.Option{{Label: "Always Allow", Description: "lasting: the agent will not ask again"}, {Label: "Allow"}, {Label: "Reject"}}}}})

	shots := dir
	if d := os.Getenv("ASKBRIDGE_SCREENSHOT_DIR"); d != "" {
		shots = d
	}
	code, _ := s.Devices().NewCode()
	d := startDriver(t, "e2e/phone.mjs", s.URL(), code, strconv.Itoa(hangingService(t)), shots)
	d.await("DENIED")
	q := board.Open(permission.Request{SessionID: "s1", Questions: []permission.Question{dbQ}, Round: 1})
	got := d.finish()

	<-ap.Done()
	assert.Equal(t, []string{"Reject"}, ap.Result().Answers[0].Answer.Labels)
	assert.Equal(t, "move it to archive/ instead", ap.Result().DenyReason)
	<-q.Done()
	assert.Equal(t, []string{"SQLite"}, q.Result().Answers[0].Answer.Labels)

	assert.Contains(t, got, "NAME Chrome on Android\n", "named from the platform, not navigator.platform")
	assert.Contains(t, got, "PAIR TEXT The code from your pairing link is filled in")
	assert.Contains(t, got, "ABOUT Remove the build directory (font: prose)")
	assert.Contains(t, got, `RUN "rm -rf build"`)
	assert.Contains(t, got, "CHOICES Allow | Deny | Deny, and tell the agent why…\n")
	assert.Contains(t, got, "YES 1 NO 1\n", "exactly one affirmative and one plain negative")
	assert.Contains(t, got, "PLACEHOLDER FITS true")
	assert.Contains(t, got, "TOLD Denied, with your reason for the agent.")
	assert.Contains(t, got, "STALE CLEARED")
	assert.Contains(t, got, "TOLD Answer sent.")
	assert.Contains(t, got, "PUSH PROGRESS Subscribing…")
	assert.Regexp(t, `PUSH FINAL No answer from this browser's push service in 20 s: the device may be offline.* AFTER \d+ ms`, got)
	assert.Contains(t, got, "PUSH BUTTON Try again: notify this device")
	if m := regexp.MustCompile(`PUSH FINAL .* AFTER (\d+) ms`).FindStringSubmatch(got); m != nil {
		ms, _ := strconv.Atoi(m[1])
		assert.Less(t, ms, 30000, "the push button's bound (20 s) and a margin")
	}
	assert.Contains(t, got, "DECISION “Allow” for “git push”, chosen on Chrome on Android with a passkey, after 12 s.")
	assert.Contains(t, got, "DECISION “Port: Which port?” answered in the editor after 3 s: Port → 3000.")
	assert.Contains(t, got, "DIGESTS 0")
	assert.Regexp(t, `TAPS [1-9]\d* IN VIEW`, got)
	assert.NotContains(t, got, "OUT OF VIEW", "every status a tap produced is on screen")
}
