//go:build live

package live

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/askbridge/askbridge/live/harness"
	"github.com/askbridge/askbridge/permission"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// acpx is a real, headless ACP client without elicitation. With
// --approve-all it picks the first allow option of every permission
// request within milliseconds, questions included: its policy, not the
// user's choice. Directly, Claude never asks it and Qwen gets a Submit with
// no answers; through askbridge the answer comes faster than a person can
// read (--min-answer-time), so the model is told no person saw the
// question, never that the first option was the user's. The time acpx took
// is logged.
func TestAcpxApproveAll(t *testing.T) {
	cases := []struct {
		agent  harness.Agent
		mode   mode
		call   string
		result string // "" : the model gets no tool result
	}{
		{harness.Claude, direct, dbQuestion, ""},
		{harness.Claude, guarded, dbQuestion, permission.NoPersonSaw},
		{harness.Qwen, direct, twoQuestions, "User has provided the following answers:\n\nNo valid answers were provided."},
		{harness.Qwen, guarded, twoQuestions, "User has provided the following answers:\n\n**Database**: " + permission.NoPersonSaw + "\n**Languages**: " + permission.NoPersonSaw},
		// Directly, OpenCode would wait for an HTTP answer until the timeout.
		{harness.OpenCode, guarded, openCodeQuestions, permission.NoPersonSaw},
	}
	for _, c := range cases {
		t.Run(c.agent.Name+"/"+c.mode.name, func(t *testing.T) {
			m := model(t, c.agent.Tool, c.call)
			agent := strings.Join(append(c.mode.wrap(t), c.agent.Argv(harness.LiveDir())...), " ")
			out := harness.Exec(t, c.agent, m.URL, []string{filepath.Join(harness.LiveDir(), "node_modules/.bin/acpx"),
				"--agent", agent, "--approve-all", "--format", "json", "--timeout", "90", "exec", "Ask me about the service."}, 0)
			require.NoError(t, out.Err, "acpx failed:\n%s", tail(out.Stderr, 4000))
			assert.Contains(t, out.Stdout, `"stopReason":"end_turn"`)
			if c.result == "" {
				assert.False(t, m.Offered(), "the question tool is not offered to a client without elicitation")
				assert.Empty(t, m.ToolResults())
				return
			}
			require.Len(t, m.ToolResults(), 1, "acpx stdout:\n%s", tail(out.Stdout, 4000))
			got := m.ToolResults()[0]
			assert.Contains(t, got, c.result)
			assert.NotContains(t, got, "Postgres", "the first option is not handed over as the user's choice")
			if c.mode.name != guarded.name {
				return
			}
			log, _ := os.ReadFile(guardedLog(t))
			took := regexp.MustCompile(`the client answered in (\S+),`).FindSubmatch(log)
			require.NotNil(t, took, "askbridge logs the automatic answer")
			t.Logf("acpx --approve-all answered in %s", took[1])
		})
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
