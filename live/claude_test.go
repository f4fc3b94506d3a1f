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
