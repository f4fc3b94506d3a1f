//go:build live

package live

import (
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/askbridge/askbridge/live/harness"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// OpenCode through askbridge: askbridge starts `opencode acp` on a port and
// with a password of its own, shows the question tool's call as permission
// requests to a client without elicitation, and answers on OpenCode's
// server. What the model reads is the proof.

const openCodeSingle = `{"questions":[{"question":"Which database should the service use?","header":"Database","options":[{"label":"Postgres","description":"relational"},{"label":"SQLite","description":"embedded"}]}]}`

const openCodeDone = ` You can now continue with the user's answers in mind.`

func TestOpenCodeBridgedSingleSelect(t *testing.T) {
	p := &permissionLog{answer: func(int, map[string]any) string { return pick("SQLite") }}
	stop, results := bridgedTurn(t, harness.OpenCode, p, openCodeSingle)
	assert.Equal(t, "end_turn", stop)
	require.Len(t, p.got(), 1)
	require.Len(t, results, 1)
	assert.Equal(t, `User has answered your questions: "Which database should the service use?"="SQLite".`+openCodeDone, results[0])
}

func TestOpenCodeBridgedTwoQuestionsWithMultiSelect(t *testing.T) {
	p := &permissionLog{answer: func(n int, _ map[string]any) string {
		if n == 1 {
			return pick("Postgres")
		}
		return `{"outcome":{"outcome":"selected","optionId":"Go","_meta":{"selectedOptionIds":["Python","Go"]}}}`
	}}
	_, results := bridgedTurn(t, harness.OpenCode, p, openCodeQuestions)
	assert.Equal(t, []string{"Database (1/2)", "Languages (2/2)"}, p.titles())
	require.Len(t, results, 1)
	assert.Equal(t, `User has answered your questions: "Which database should the service use?"="Postgres", "Which languages should the service support?"="Go, Python".`+openCodeDone, results[0])
}

func TestOpenCodeBridgedOtherWithTypedText(t *testing.T) {
	p := &permissionLog{answer: func(int, map[string]any) string {
		return `{"outcome":{"outcome":"selected","optionId":"__other__","_meta":{"customText":"MariaDB"}}}`
	}}
	_, results := bridgedTurn(t, harness.OpenCode, p, openCodeSingle)
	require.Len(t, results, 1)
	assert.Contains(t, results[0], `"Which database should the service use?"="MariaDB"`)
}

func TestOpenCodeBridgedCancelRejects(t *testing.T) {
	p := &permissionLog{answer: func(int, map[string]any) string { return `{"outcome":{"outcome":"cancelled"}}` }}
	m := model(t, harness.OpenCode.Tool, openCodeQuestions)
	var mu sync.Mutex
	var updates []string
	r := harness.Start(t, harness.OpenCode, harness.Options{ModelURL: m.URL, Wrap: bridged.wrap(t), Client: harness.Client{
		RequestPermission: p.handle,
		Notify: func(method string, params json.RawMessage) {
			mu.Lock()
			updates = append(updates, string(params))
			mu.Unlock()
		},
	}})
	_, stop, err := r.Turn(harness.NoFeatures, "Ask me about the service.")
	require.NoError(t, err)
	t.Logf("stop reason after the reject: %q; tool results the model received: %q", stop, m.ToolResults())
	assert.Len(t, p.got(), 1, "no second question after a cancel")
	mu.Lock()
	defer mu.Unlock()
	assert.True(t, slices.ContainsFunc(updates, func(u string) bool {
		return strings.Contains(u, `"status":"failed"`) && strings.Contains(u, "dismissed")
	}), "OpenCode reports the rejected question as a failed tool call: %v", updates)
}
