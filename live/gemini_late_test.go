//go:build live

package live

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askbridge/askbridge/live/harness"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Gemini CLI's MCP timeout is settable only for the servers its
// settings.json lists (mcpServers.<name>.timeout, in ms), not for the one
// askbridge lists in session/new. So `askbridge mcp` is listed there too,
// with a 20 s timeout, and asked through while the editor keeps the
// question unanswered: the progress sent at 15 s does not keep Gemini's
// call alive (it replaces the SDK's progress handler with one that only
// shows it), the call ends at 20 s, and the answer given afterwards reaches
// the model with the next prompt. About a minute.
func TestGeminiLateAnswerAfterItsTimeout(t *testing.T) {
	release := make(chan struct{})
	asked := make(chan struct{}, 4)
	client := harness.Client{RequestPermission: func(json.RawMessage) (any, error) {
		asked <- struct{}{}
		select { // the user answers only after Gemini gave up
		case <-release:
		case <-time.After(2 * time.Minute):
		}
		return json.RawMessage(pick("Postgres")), nil
	}}
	// Gemini skips a system settings file under a folder others may write
	// to (/tmp): one under the user's cache folder.
	cache, err := os.UserCacheDir()
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(cache, 0o700))
	dir, err := os.MkdirTemp(cache, "askbridge-gemini-settings")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	system := filepath.Join(dir, "system-settings.json")
	// Gemini hands a server it starts only a few of its variables (it
	// redacts the rest, ASKBRIDGE_SOCKET too): the server finds the socket
	// where askbridge makes it, under the run's HOME. (The test's name is
	// short: the socket's path is under it, and a Unix socket's is short.)
	script := `ASKBRIDGE_SOCKET=$(ls -d "$HOME"/.cache/askbridge/ask-*/ask.sock | head -n 1) exec "$0" mcp`
	settings := map[string]any{"mcpServers": map[string]any{"asker": map[string]any{
		"command": "sh", "args": []string{"-c", script, askbridge(t)}, "timeout": 20000, "trust": true}}}
	b, _ := json.Marshal(settings)
	require.NoError(t, os.WriteFile(system, b, 0o600))
	m := model(t, harness.Gemini.Tool, dbQuestion)
	r := harness.Start(t, harness.Gemini, harness.Options{ModelURL: m.URL, Client: client, Timeout: 3 * time.Minute,
		Env:  []string{"GEMINI_CLI_SYSTEM_SETTINGS_PATH=" + system},
		Wrap: harness.Askbridge(askbridge(t), "--log-level=debug", "--min-answer-time=0", "--inject-ask=never")})
	_, err = r.Initialize(harness.NoFeatures)
	require.NoError(t, err)
	session, err := r.NewSession()
	require.NoError(t, err)

	start := time.Now()
	stop, err := r.Prompt(session, "Ask me about the service.")
	took := time.Since(start)
	require.NoError(t, err)
	t.Logf("Gemini's turn ended after %s, stop %q; the model read: %q", took.Round(time.Second), stop, m.ToolResults())
	require.Len(t, asked, 1, "the question reached the editor once")
	require.Len(t, m.ToolResults(), 1)
	assert.Contains(t, m.ToolResults()[0], "timed out", "Gemini's call did not time out")
	assert.Less(t, took, 40*time.Second, "progress at 15 s kept Gemini's 20 s call alive")
	require.Eventually(t, func() bool { return strings.Contains(r.Stderr(), "the agent stopped waiting for a question") }, 10*time.Second, 100*time.Millisecond)

	close(release) // the user answers now
	require.Eventually(t, func() bool { return strings.Contains(r.Stderr(), "a late answer waits for the agent") }, 10*time.Second, 100*time.Millisecond)
	before := len(m.Requests())
	_, err = r.Prompt(session, "Go on.")
	require.NoError(t, err)
	var next string
	for _, q := range m.Requests()[before:] {
		if strings.Contains(string(q.Body), "Go on.") {
			next = string(q.Body)
		}
	}
	require.NotEmpty(t, next, "the model got no request for the next prompt")
	assert.Contains(t, next, `\"Which database should the service use?\"=\"Postgres\"`, "the model's next request lacks the late answer")
}
