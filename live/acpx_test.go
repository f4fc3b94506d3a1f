//go:build live

package live

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/askbridge/askbridge/live/harness"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// acpx is a real, headless ACP client without elicitation. With
// --approve-all it picks the first allow option of every permission
// request, which is what a user clicking the first button does. Directly,
// Claude never asks it and Qwen gets a Submit with no answers; through
// askbridge both get the first option of each question; a multi-select is
// asked again with the options left and Done last, so the first button
// each time picks every option.
func TestAcpxApproveAll(t *testing.T) {
	cases := []struct {
		agent  harness.Agent
		mode   mode
		call   string
		result string // "" : the model gets no tool result
	}{
		{harness.Claude, direct, dbQuestion, ""},
		{harness.Claude, bridged, dbQuestion, `Your questions have been answered: "Which database should the service use?"="Postgres".` + claudeDone},
		{harness.Qwen, direct, twoQuestions, "User has provided the following answers:\n\nNo valid answers were provided."},
		{harness.Qwen, bridged, twoQuestions, "User has provided the following answers:\n\n**Database**: Postgres\n**Languages**: Go, Rust, Python"},
		// Directly, OpenCode would wait for an HTTP answer until the timeout.
		{harness.OpenCode, bridged, openCodeQuestions, `User has answered your questions: "Which database should the service use?"="Postgres", "Which languages should the service support?"="Go, Rust, Python".` + ` You can now continue with the user's answers in mind.`},
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
			assert.Equal(t, c.result, m.ToolResults()[0])
		})
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
