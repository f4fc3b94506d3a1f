package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hookDoc waits for the document the hook wrote for one event.
func hookDoc(t *testing.T, path string, within time.Duration) map[string]any {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		if b, err := os.ReadFile(path); err == nil && bytes.HasSuffix(b, []byte("\n")) {
			var m map[string]any
			require.NoError(t, json.Unmarshal(b, &m))
			return m
		}
		if time.Now().After(deadline) {
			t.Fatalf("the hook wrote no %s within %s", filepath.Base(path), within)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// The flags end to end: the hook has the question within a second and its
// ten-second sleep delays no answer; the webhook gets every event; an
// answer at the desk says so.
func TestE2EOnQuestionAndNotifyURLThroughTheBinary(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the hook is an sh command line; Windows runs hooks through cmd /C")
	}
	dir := t.TempDir()
	posts := make(chan http.Header, 10)
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		posts <- r.Header.Clone()
	}))
	defer hook.Close()
	// The first set's hook sleeps ten seconds after writing its event.
	cmd := `cat > "` + dir + `/$ASKBRIDGE_QUESTION_ID.$ASKBRIDGE_EVENT.json"; if [ "$ASKBRIDGE_QUESTION_ID" = q1 ]; then exec sleep 10; fi`
	const deskToken = "e2e-notify-desk-token-0123456789"
	t.Setenv("ASKBRIDGE_DESK_TOKEN", deskToken) // the hook's link carries none
	c := startClient(t, "--desk", "127.0.0.1:0", "--on-question", cmd, "--notify-url", hook.URL+"/topic")
	s := c.setup()

	c.prompt(s, "_askbridge/ask", map[string]any{"questions": []any{question("Which database?", "Database", false, "Postgres", "SQLite")}})
	req := c.permissionRequest()
	asked := hookDoc(t, filepath.Join(dir, "q1.asked.json"), time.Second)
	assert.Equal(t, "asked", asked["event"])
	assert.Equal(t, s, asked["session"])
	assert.Contains(t, jsonString(asked["questions"]), `"question":"Which database?"`)
	desk, err := url.Parse(asked["deskUrl"].(string))
	require.NoError(t, err)
	assert.Empty(t, desk.RawQuery, "the desk link carries no secret")
	deskHTTP := c.deskClient(desk.String())
	assert.Equal(t, "/", desk.Path)

	answered := time.Now()
	c.reply(req, `{"outcome":{"outcome":"selected","optionId":"Postgres"}}`)
	assert.Contains(t, c.agentSaw(), `"Which database?":"Postgres"`)
	assert.Less(t, time.Since(answered), 2*time.Second, "the sleeping hook does not hold the answer")
	assert.Equal(t, "asked", recvHeader(t, posts).Get("X-Askbridge-Event"))
	done := recvHeader(t, posts)
	assert.Equal(t, "answered", done.Get("X-Askbridge-Event"))
	assert.Equal(t, "askbridge: Answered in the editor: Database: Which database?", done.Get("Title"))

	// The second set is answered at the desk the hook was told about.
	c.prompt(s, "_askbridge/ask", map[string]any{"questions": []any{question("Which CI?", "CI", false, "GitHub", "GitLab")}})
	c.permissionRequest()
	asked = hookDoc(t, filepath.Join(dir, "q2.asked.json"), time.Second)
	assert.Equal(t, "q2", asked["id"], "the hook hears of the second set before it is answered")
	reply, _ := http.NewRequest(http.MethodPost, "http://"+desk.Host+"/question/q2/reply", strings.NewReader(`{"answers":[["GitLab"]]}`))
	resp, err := deskHTTP.Do(reply)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, c.agentSaw(), `"Which CI?":"GitLab"`)
	fromDesk := hookDoc(t, filepath.Join(dir, "q2.answered.json"), time.Second)
	assert.Equal(t, "desk", fromDesk["source"])
	assert.Equal(t, "GitLab", fromDesk["answers"].([]any)[0].(map[string]any)["answer"])
}

func recvHeader(t *testing.T, ch <-chan http.Header) http.Header {
	t.Helper()
	select {
	case h := <-ch:
		return h
	case <-time.After(5 * time.Second):
		t.Fatal("the webhook got nothing within 5s")
		return nil
	}
}

// A --notify-url that is no URL stops askbridge before the agent starts.
func TestNotifyURLIsCheckedAtStart(t *testing.T) {
	out, err := exec.Command(askbridgeBin, "--notify-url", "ntfy.sh/topic", "--", "true").CombinedOutput()
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee)
	assert.Equal(t, 2, ee.ExitCode())
	assert.Contains(t, string(out), `askbridge: --notify-url "ntfy.sh/topic": want an http:// or https:// URL`)
}

// --notify without a notifier on PATH says so once and runs on.
func TestNotifyWithoutNotifierSaysSoOnce(t *testing.T) {
	cmd := exec.Command(askbridgeBin, append([]string{"--notify", "--"}, e2eAgentCommand(t)...)...)
	cmd.Env = append(os.Environ(), "ASKBRIDGE_E2E_AGENT=1", "GORACE=atexit_sleep_ms=0", "PATH="+t.TempDir(),
		"DBUS_SESSION_BUS_ADDRESS=", "XDG_RUNTIME_DIR="+t.TempDir())
	cmd.Stdin = strings.NewReader("")
	done := make(chan struct{})
	var out []byte
	go func() { out, _ = cmd.CombinedOutput(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatal("askbridge did not exit on EOF")
	}
	assert.Equal(t, 1, strings.Count(string(out), "no desktop notifier"), string(out))
	missing := map[string]string{"darwin": "osascript is not on PATH", "windows": "powershell is not on PATH"}[runtime.GOOS]
	if missing == "" {
		missing = "no D-Bus session bus"
	}
	assert.Contains(t, string(out), missing)
}
