//go:build live

package live

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var qwenQuestions = json.RawMessage(`{"questions":[{"question":"Which database should the service use?","header":"Database","multiSelect":false,"options":[{"label":"Postgres","description":"relational"},{"label":"SQLite","description":"embedded"}]},{"question":"Which languages do you want?","header":"Languages","multiSelect":true,"options":[{"label":"Go","description":"fast builds"},{"label":"Rust","description":"no GC"},{"label":"Python","description":"scripts"}]}]}`)

func TestQwenThroughAskbridgeAnswersArriveInTheTopLevelAnswersField(t *testing.T) {
	var titles []string
	s := start(t, qwen, runOpts{calls: []json.RawMessage{qwenQuestions}, answer: func(req map[string]any) string {
		titles = append(titles, req["params"].(map[string]any)["toolCall"].(map[string]any)["title"].(string))
		if len(titles) == 1 {
			return `{"outcome":{"outcome":"selected","optionId":"SQLite"}}`
		}
		return `{"outcome":{"outcome":"selected","optionId":"Go","_meta":{"selectedOptionIds":["Go","Python"]}}}`
	}})
	stop := s.turn("", "Ask me about the database and languages.")
	assert.Equal(t, "end_turn", stop)
	require.True(t, s.model.Offered())
	assert.Equal(t, []string{"Database (1/2)", "Languages (2/2)"}, titles)
	results := s.model.ToolResults()
	require.Len(t, results, 1)
	assert.Contains(t, results[0], "SQLite")
	assert.Contains(t, results[0], "Go, Python")
	t.Logf("tool result the model received: %s", results[0])
}

func TestQwenCancelBecomesItsCancelledOutcome(t *testing.T) {
	n := 0
	s := start(t, qwen, runOpts{calls: []json.RawMessage{qwenQuestions}, answer: func(req map[string]any) string {
		n++
		return `{"outcome":{"outcome":"cancelled"}}`
	}})
	s.turn("", "Ask me about the database and languages.")
	assert.Equal(t, 1, n, "no question after a cancel")
	results := s.model.ToolResults()
	t.Logf("tool results the model received: %q", results)
	for _, r := range results {
		assert.NotContains(t, r, "**Database**")
	}
}
