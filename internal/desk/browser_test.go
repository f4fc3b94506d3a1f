//go:build browser

package desk

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/permission"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBrowserAnswersAMultiSelectThatReachesTheAgent runs the adapter with a
// fake agent asking a multi-select and a client that never answers, opens
// the desk page in Chromium, answers with the keyboard, and checks that the
// agent got the answers and the client's request was withdrawn.
func TestBrowserAnswersAMultiSelectThatReachesTheAgent(t *testing.T) {
	if _, err := os.Stat("/usr/bin/chromium"); err != nil {
		t.Skip("Debian's chromium is not installed: run internal/desk/e2e/install.sh")
	}
	if _, err := os.Stat("e2e/node_modules/playwright-core"); err != nil {
		t.Skip("playwright-core is not installed: run internal/desk/e2e/install.sh")
	}
	board := permission.NewBoard()
	d, err := Listen("127.0.0.1:0", board, Options{Token: "t0ken"})
	require.NoError(t, err)
	defer d.Close()

	cInR, cInW := io.Pipe()
	cOutR, cOutW := io.Pipe()
	aInR, aInW := io.Pipe()
	aOutR, aOutW := io.Pipe()
	relay := adapter.NewRelay(adapter.RelayConfig{ClientIn: cInR, ClientOut: cOutW, AgentIn: aInR, AgentOut: aOutW})
	cleanup := adapter.NewBridge(adapter.Options{Advertise: true, Board: board, Limits: permission.DefaultLimits()}).Setup(relay)
	relay.Start()
	defer func() { cleanup(); cInW.Close(); aInW.Close(); cOutW.Close(); aOutW.Close() }()

	lines := func(r io.Reader) chan string {
		ch := make(chan string, 100)
		go func() {
			sc := bufio.NewScanner(r)
			for sc.Scan() {
				ch <- sc.Text()
			}
			close(ch)
		}()
		return ch
	}
	toClient, toAgent := lines(cOutR), lines(aOutR)
	expect := func(ch chan string, sub string) string {
		t.Helper()
		deadline := time.After(30 * time.Second)
		for {
			select {
			case l := <-ch:
				if strings.Contains(l, sub) {
					return l
				}
			case <-deadline:
				t.Fatalf("never saw %q", sub)
			}
		}
	}
	fmt.Fprintln(cInW, `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/tmp","mcpServers":[]}}`)
	expect(toAgent, "session/new")
	fmt.Fprintln(aInW, `{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`)
	expect(toClient, `"sessionId":"s1"`)
	fmt.Fprintln(aInW, `{"jsonrpc":"2.0","id":"ask-1","method":"_askbridge/ask","params":{"sessionId":"s1","questions":[{"question":"Which languages? <script>window.__xss=true</script>","header":"Langs","multiSelect":true,"options":[{"label":"Go","description":"<b>fast</b> builds"},{"label":"Rust"},{"label":"C"}]}]}}`)
	perm := expect(toClient, "session/request_permission")

	shot := filepath.Join(t.TempDir(), "desk.png")
	if dir := os.Getenv("ASKBRIDGE_SCREENSHOT_DIR"); dir != "" {
		shot = filepath.Join(dir, "desk.png")
	}
	cmd := exec.Command("node", "e2e/answer.mjs", d.URL(), shot)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	text := string(out)
	assert.Contains(t, text, "LEGEND LangsWhich languages? <script>window.__xss=true</script>", "agent text shows as text")
	assert.Contains(t, text, "XSS false")
	assert.Contains(t, text, "SCRIPTS 0")
	assert.Contains(t, text, "HISTORY Round 1 (answered) Langs")
	assert.Contains(t, text, "DONE")

	reply := expect(toAgent, `"ask-1"`)
	var r struct {
		Result struct {
			Behavior     string
			UpdatedInput struct{ Answers map[string]string }
		}
	}
	require.NoError(t, json.Unmarshal([]byte(reply), &r))
	assert.Equal(t, "allow", r.Result.Behavior)
	assert.Equal(t, "Go, C", r.Result.UpdatedInput.Answers["Which languages? <script>window.__xss=true</script>"])

	var p struct{ ID string }
	json.Unmarshal([]byte(perm), &p)
	withdrawn := expect(toClient, "$/cancel_request")
	assert.Contains(t, withdrawn, p.ID, "the request still open at the client is withdrawn")
}
