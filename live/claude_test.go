//go:build live

package live

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var dbQuestion = json.RawMessage(`{"questions":[{"question":"Which database should the service use?","header":"Database","multiSelect":false,"options":[{"label":"Postgres","description":"relational, the default"},{"label":"SQLite","description":"embedded file"}]}]}`)

// pickLabel answers every permission request with the option whose id is label.
func pickLabel(label string) func(map[string]any) string {
	return func(map[string]any) string {
		return `{"outcome":{"outcome":"selected","optionId":"` + label + `"}}`
	}
}

func TestClaudeSingleThroughAskbridgeWithoutClientElicitation(t *testing.T) {
	var asked []map[string]any
	s := start(t, claude, runOpts{calls: []json.RawMessage{dbQuestion}, answer: func(req map[string]any) string {
		asked = append(asked, req)
		return pickLabel("Postgres")(req)
	}})
	stop := s.turn("", "Set up the database, ask me which one.")
	assert.Equal(t, "end_turn", stop)
	require.True(t, s.model.Offered(), "Claude offers AskUserQuestion once askbridge advertises form elicitation")
	require.Len(t, asked, 1)
	assert.Contains(t, mustJSON(asked[0]), `"optionId":"__other__"`)
	results := s.model.ToolResults()
	require.Len(t, results, 1)
	assert.Contains(t, results[0], "Postgres")
	t.Logf("tool result the model received: %s", results[0])
}

func TestClaudeWithoutAskbridgeOffersNoQuestionTool(t *testing.T) {
	s := start(t, claude, runOpts{direct: true, calls: []json.RawMessage{dbQuestion}})
	s.turn("", "Set up the database, ask me which one.")
	assert.False(t, s.model.Offered(), "without client form elicitation Claude removes AskUserQuestion")
	assert.Empty(t, s.model.ToolResults())
}

var _ = strings.Contains

var langQuestion = json.RawMessage(`{"questions":[{"question":"Which languages should the service support?","header":"Languages","multiSelect":true,"options":[{"label":"Go","description":"fast builds"},{"label":"Rust","description":"no GC"},{"label":"Python","description":"scripts"}]}]}`)

func TestClaudeMultiSelectOnePickAtATime(t *testing.T) {
	n := 0
	s := start(t, claude, runOpts{calls: []json.RawMessage{langQuestion}, answer: func(req map[string]any) string {
		n++
		switch n {
		case 1:
			return `{"outcome":{"outcome":"selected","optionId":"Rust"}}`
		case 2:
			return `{"outcome":{"outcome":"selected","optionId":"Go"}}`
		}
		return `{"outcome":{"outcome":"selected","optionId":"__done__"}}`
	}})
	s.turn("", "Ask me which languages.")
	results := s.model.ToolResults()
	require.Len(t, results, 1)
	assert.Contains(t, results[0], `"Go, Rust"`)
	assert.Equal(t, 3, n)
}

func TestClaudeMultiSelectAllAtOnceAndOtherWithText(t *testing.T) {
	s := start(t, claude, runOpts{calls: []json.RawMessage{langQuestion}, answer: func(req map[string]any) string {
		return `{"outcome":{"outcome":"selected","optionId":"Go","_meta":{"selectedOptionIds":["Go","__other__"],"customText":"Zig"}}}`
	}})
	s.turn("", "Ask me which languages.")
	results := s.model.ToolResults()
	require.Len(t, results, 1)
	assert.Contains(t, results[0], "Go, Zig")
}

func TestClaudeOtherWithTypedText(t *testing.T) {
	s := start(t, claude, runOpts{calls: []json.RawMessage{dbQuestion}, answer: func(req map[string]any) string {
		return `{"outcome":{"outcome":"selected","optionId":"__other__","_meta":{"customText":"CockroachDB"}}}`
	}})
	s.turn("", "Ask me which database.")
	results := s.model.ToolResults()
	require.Len(t, results, 1)
	assert.Contains(t, results[0], "CockroachDB")
	t.Logf("tool result the model received: %s", results[0])
}

func TestClaudeCancelledQuestion(t *testing.T) {
	s := start(t, claude, runOpts{calls: []json.RawMessage{dbQuestion}, answer: func(req map[string]any) string {
		return `{"outcome":{"outcome":"cancelled"}}`
	}})
	stop := s.turn("", "Ask me which database.")
	results := s.model.ToolResults()
	t.Logf("stop %q, tool results the model received: %q", stop, results)
	for _, r := range results {
		assert.NotContains(t, r, "Postgres")
	}
	assert.NotContains(t, mustJSON(results), `="`, "no answer reached the model")
}

func TestClaudeWithClientElicitationPassesThrough(t *testing.T) {
	s := start(t, claude, runOpts{calls: []json.RawMessage{dbQuestion}, answer: func(req map[string]any) string {
		t.Error("a client that renders forms gets no permission request for a question")
		return `{"outcome":{"outcome":"cancelled"}}`
	}})
	s.onRequest = func(m map[string]any) (string, bool) {
		if m["method"] != "elicitation/create" {
			return "", false
		}
		return `{"action":"accept","content":{"question_0":"SQLite"}}`, true
	}
	s.turn(`{"elicitation":{"form":{}}}`, "Ask me which database.")
	results := s.model.ToolResults()
	require.Len(t, results, 1)
	assert.Contains(t, results[0], `"SQLite"`)
}

func TestClaudeTwoQuestionsInOneTurnShowRoundsOneAndTwo(t *testing.T) {
	var titles []string
	s := start(t, claude, runOpts{calls: []json.RawMessage{dbQuestion, langQuestion}, answer: func(req map[string]any) string {
		title := req["params"].(map[string]any)["toolCall"].(map[string]any)["title"].(string)
		titles = append(titles, title)
		if strings.Contains(title, "Database") {
			return `{"outcome":{"outcome":"selected","optionId":"Postgres"}}`
		}
		return `{"outcome":{"outcome":"selected","optionId":"Go","_meta":{"selectedOptionIds":["Go"]}}}`
	}})
	s.turn("", "Ask me two things.")
	require.Len(t, s.model.ToolResults(), 2)
	require.Len(t, titles, 2)
	assert.Equal(t, "Database", titles[0], "round 1 is not numbered")
	assert.Equal(t, "Round 2 · Languages", titles[1])
}
