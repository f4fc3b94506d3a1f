//go:build browser

package hub

import (
	"context"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route/desk"
)

// TestBrowserHubPage serves the hub's page over a real hub that two
// askbridges report to (through the hub's own client side), each running
// another agent in another folder, and drives it in Chromium
// (../desk/e2e/hub.mjs) at 1280×800 and at a phone's 390×844: the sets are
// grouped by connection, each named by agent, folder (under the
// askbridge's home as "~") and client, and its process and connection id,
// say how long they waited, the tab title counts them, the phone scrolls
// no sideways, and a set answered on the phone reaches the askbridge that
// asked it, not the other.
//
// A missing browser fails the test (see route/desk/e2e/install.sh).
// ASKBRIDGE_SCREENSHOT_DIR keeps the two screenshots.
func TestBrowserHubPage(t *testing.T) {
	for _, need := range []string{"/usr/bin/chromium", "../desk/e2e/node_modules/playwright-core"} {
		if _, err := os.Stat(need); err != nil {
			t.Fatalf("%s is missing: run route/desk/e2e/install.sh", need)
		}
	}
	path := socket(t)
	h, hb, _ := startHub(t, path)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	page := desk.New(ln, hb, desk.Options{Hub: true,
		Routes: map[string]http.HandlerFunc{"GET /instance": h.ServeInstances}})
	t.Cleanup(func() { page.Close() })
	claudeSet, codexSet := reportTwoAgents(t, h, hb, path)

	out := driveHubPage(t, page)
	claudeGroup, codexGroup := "Claude Code · ~/src/api · Zed", "Codex · "+hubCodexDir+" · JetBrains"
	for _, size := range []string{"DESKTOP", "PHONE"} {
		checkHubPageAt(t, out, size, claudeGroup, codexGroup)
	}
	checkHubPhone(t, out, claudeGroup, codexGroup)

	for _, s := range []struct {
		name   string
		ticket *permission.Ticket
	}{{"codex", codexSet}, {"claude", claudeSet}} {
		select {
		case <-s.ticket.Done():
		case <-time.After(5 * time.Second):
			t.Fatalf("the %s askbridge's set is still pending", s.name)
		}
	}
	r := codexSet.Result()
	assert.Equal(t, permission.SourceHub, r.Source)
	require.Len(t, r.Answers, 1)
	assert.Equal(t, []string{"3000"}, r.Answers[0].Answer.Labels, "Codex's askbridge gets the answer picked on the phone")
	r = claudeSet.Result()
	assert.True(t, r.Cancelled, "Claude's set was cancelled on the phone, not answered")
	assert.Equal(t, permission.SourceHub, r.Source)
}

// hubCodexDir is Codex's folder, outside its home, whose long name must
// wrap on a phone.
const hubCodexDir = "/srv/projects/a-project-whose-folder-name-goes-on-for-quite-a-while-longer-than-a-phone/web"

// reportTwoAgents has two askbridges report to the hub at path, Claude
// Code in Zed and Codex in a JetBrains IDE, each asking a set; it returns
// once the hub knows both sets' folders.
func reportTwoAgents(t *testing.T, h *Hub, hb *permission.Board, path string) (claudeSet, codexSet *permission.Ticket) {
	// Claude Code in Zed: its session's folder is under its home.
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	claude := permission.NewBoard()
	rep := Report(ctx, claude, path, Instance{Agent: "Claude Code", Client: "Zed", PID: os.Getpid(), Host: "here", CWD: "/home/ann", Home: "/home/ann"}, nil)
	rep.Update(func(i *Instance) { i.Sessions = map[string]string{"sess-1": "/home/ann/src/api"} })
	// Codex, and a question with a long path and a longer word that cannot
	// break but where it must.
	codex := permission.NewBoard()
	Report(ctx, codex, path, Instance{Agent: "Codex", Client: "JetBrains", PID: os.Getpid(), Host: "here", CWD: hubCodexDir, Home: "/home/ann"}, nil)

	claudeSet = claude.Open(permission.Request{SessionID: "sess-1", Round: 1, Questions: []permission.Question{{
		Question: "Which database?", Header: "Database",
		Options: []permission.Option{{Label: "Postgres", Description: "relational, runs as a server"}, {Label: "SQLite", Description: "a file"}}}}})
	codexSet = codex.Open(permission.Request{SessionID: "sess-1", Round: 1, Questions: []permission.Question{{
		Question: "Which port should " + strings.Repeat("/very-long-path-segment", 8) + "/server.go listen on? (at commit " + strings.Repeat("0123456789abcdef", 5) + ")", Header: "Port",
		Options: []permission.Option{{Label: "8080", Description: "the usual"}, {Label: "3000", Description: "what the frontend proxies to"}}}}})
	// The page is opened once the hub knows both folders.
	require.Eventually(t, func() bool {
		folders := map[string]bool{}
		for _, p := range hb.List() {
			_, cwd := h.origin(p.ID)
			folders[cwd] = true
		}
		return folders["/home/ann/src/api"] && folders[hubCodexDir]
	}, 5*time.Second, 10*time.Millisecond, "both sets on the hub with their folders")
	return claudeSet, codexSet
}

// driveHubPage runs ../desk/e2e/hub.mjs on page, paired as a desktop and
// as a phone, and gives what it said.
func driveHubPage(t *testing.T, page *desk.Server) string {
	dir := t.TempDir()
	if d := os.Getenv("ASKBRIDGE_SCREENSHOT_DIR"); d != "" {
		dir = d
	}
	run, stop := context.WithTimeout(context.Background(), 2*time.Minute)
	defer stop()
	desktopCode, _ := page.Devices().NewCode()
	phoneCode, _ := page.Devices().NewCode()
	cmd := exec.CommandContext(run, "node", "../desk/e2e/hub.mjs", page.URL(), desktopCode, phoneCode,
		filepath.Join(dir, "hub-desktop.png"), filepath.Join(dir, "hub-phone.png"))
	b, err := cmd.CombinedOutput()
	out := string(b)
	require.NoError(t, err, out)
	t.Log("the page driver said:\n" + out)
	return out
}

// checkHubPageAt checks the page at one size (DESKTOP, PHONE): a group
// per connection, each with its pid, how long it waited, the title.
func checkHubPageAt(t *testing.T, out, size, claudeGroup, codexGroup string) {
	groups := regexp.MustCompile(size + ` GROUPS (.*)\n`).FindStringSubmatch(out)
	require.NotNil(t, groups, size)
	assert.ElementsMatch(t, []string{claudeGroup, codexGroup}, strings.Split(groups[1], " | "), size)
	conns := regexp.MustCompile(size + ` CONNECTIONS (.*)\n`).FindStringSubmatch(out)
	require.NotNil(t, conns, size)
	pid := "pid " + strconv.Itoa(os.Getpid()) + " · a"
	both := strings.Split(conns[1], " | ")
	require.Len(t, both, 2)
	assert.True(t, strings.HasPrefix(both[0], pid) && strings.HasPrefix(both[1], pid) && both[0] != both[1], "each group its connection, with the kernel's pid: %q", conns[1])
	assert.Regexp(t, size+` WAITED waiting \d+ (s|min)\n`, out)
	assert.Contains(t, out, size+" TITLE (2) askbridge · hub\n", "the hub's page is named the hub")
	assert.Contains(t, out, size+" OVERFLOW false", "no sideways scrolling")
}

// checkHubPhone checks what only the phone did: its tap targets, the
// answer and the cancel, the title and the history after them.
func checkHubPhone(t *testing.T, out, claudeGroup, codexGroup string) {
	taps := regexp.MustCompile(`PHONE TAPS (\d+) FULL WIDTH (\w+) MIN HEIGHT ([\d.]+)`).FindStringSubmatch(out)
	require.NotNil(t, taps)
	assert.Equal(t, "8", taps[1], "four options and four buttons on two cards")
	assert.Equal(t, "true", taps[2], "options and buttons full-width on a phone")
	height, err := strconv.ParseFloat(taps[3], 64)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, height, 44.0, "at least 44px tall")
	assert.Regexp(t, `PHONE WAITED UPDATES waiting (\d+) s -> waiting (\d+) s`, out)
	assert.Contains(t, out, "PHONE LEFT "+claudeGroup+"\n")
	assert.Contains(t, out, "PHONE TITLE AFTER ANSWER (1) askbridge · hub\n")
	assert.Contains(t, out, "PHONE TITLE AT THE END askbridge · hub\n")
	asked := `, asked \d{1,2}:\d{2}( [AP]M)?` // the time of day it was asked, in the browser's locale
	assert.Regexp(t, `PHONE HISTORY Round 1 \(answered\) Port — `+regexp.QuoteMeta(codexGroup)+asked+`Which port`, out, "the history says who asked, and when")
	assert.Regexp(t, `PHONE HISTORY Round 1 \(cancelled\) Database — `+regexp.QuoteMeta(claudeGroup)+asked+"\n", out)
}
