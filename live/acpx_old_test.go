//go:build live

package live

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/live/harness"
)

// oldAcpx is acpx 0.1.15's cli.js, what `npm i -g acpx` installs on Node
// 20: $ASKBRIDGE_ACPX_0_1_15, else live/node_modules/acpx-0.1.15 (the
// npm alias "acpx-0.1.15": "npm:acpx@0.1.15").
func oldAcpx(t *testing.T) string {
	path := os.Getenv("ASKBRIDGE_ACPX_0_1_15")
	if path == "" {
		path = filepath.Join(harness.LiveDir(), "node_modules", "acpx-0.1.15", "dist", "cli.js")
	}
	if _, err := os.Stat(path); err != nil {
		t.Skipf("acpx 0.1.15 is not installed (%v): npm i acpx-0.1.15@npm:acpx@0.1.15 in live/, or set ASKBRIDGE_ACPX_0_1_15", err)
	}
	return path
}

// acpx 0.1.15 is built on an ACP SDK that answers $/cancel_request with
// "Method not found", printed each time askbridge withdrew its prompt
// because the question was answered elsewhere (issue 39). In a terminal,
// with the real Claude: acpx shows the question's first yes/no prompt,
// the hub answers, the model reads the hub's answer, and acpx printed no
// error for it. Its prompt, never withdrawn, is answered after and
// dropped. (acpx 0.1.15 prints "Method not found" for the agents' own
// extensions too, Claude's _auth/status_update, Qwen's
// craft/drainMidTurnQueue: those are not askbridge's to withdraw.)
func TestOldAcpxAnsweredAtTheHubPrintsNoError(t *testing.T) {
	acpx := oldAcpx(t)
	h := startLiveHub(t)
	m := model(t, harness.Claude.Tool, dbQuestion)
	agent := strings.Join(append(harness.Askbridge(askbridge(t), "--log-level=debug", "--hub="+h.sock), harness.Claude.Argv(harness.LiveDir())...), " ")
	tm := harness.Tmux(t, harness.Claude, m.URL, []string{"node", acpx, "--agent", agent, "--format", "text", "--timeout", "120", "exec", "Ask me about the service."})
	screen := tm.WaitFor("(y/N)", 1, 90*time.Second)
	require.Contains(t, screen[strings.LastIndex(screen, "[permission]"):], "Which database should the service use?")
	codes, err := h.answer([][]string{{"SQLite"}})
	require.NoError(t, err)
	assert.Equal(t, []int{200}, codes)
	require.Eventually(t, func() bool { return len(m.ToolResults()) == 1 }, 60*time.Second, 100*time.Millisecond, "the model gets the hub's answer; the terminal shows:\n%s", tm.Screen())
	assert.Contains(t, m.ToolResults()[0], `"Which database should the service use?"="SQLite"`)
	tm.Type("n", "Enter") // the prompt left open: its answer is dropped
	tm.Exited(90 * time.Second)
	out := tm.Screen()
	t.Logf("the terminal shows:\n%s", out)
	assert.NotContains(t, out, "cancel_request", "acpx was sent no $/cancel_request")
}
