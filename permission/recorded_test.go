package permission

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testdata/recorded holds what real agents sent in the live tests
// (/work/notes/recordings): Claude's AskUserQuestion input, Qwen Code's
// permission toolCall and OpenCode's question rawInput, all asking the same
// two questions. The same files, one per line, seed the fuzz targets
// (testdata/fuzz).

func recorded(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "recorded", name))
	require.NoError(t, err)
	return b
}

// twoQuestions is what every recorded dialect normalises to.
var twoQuestions = []Question{
	{
		Question: "Which database should the service use?", Header: "Database",
		Options: []Option{{"Postgres", "relational"}, {"SQLite", "embedded"}},
	},
	{
		Question: "Which languages should the service support?", Header: "Languages", Kind: Multi,
		Options: []Option{{"Go", "fast builds"}, {"Rust", "no GC"}, {"Python", "scripts"}},
	},
}

func TestRecordedClaudeInputDecodes(t *testing.T) {
	claude, err := DecodeAskInput(recorded(t, "claude-askuserquestion-input.json"))
	require.NoError(t, err)
	assert.Equal(t, twoQuestions, claude)

	assert.NoError(t, Validate(twoQuestions, DefaultLimits()))
	assert.NoError(t, ValidateBridged(twoQuestions, DefaultLimits()))
}

// The permission request a live Claude run showed the client must still be
// what Render makes: clients were tested against these bytes.
func TestRenderReproducesTheRecordedRequest(t *testing.T) {
	want := recorded(t, "claude-bridged-request-permission.json")
	var meta struct {
		SessionID string `json:"sessionId"`
	}
	require.NoError(t, json.Unmarshal(want, &meta))
	got := Render(Prompt{SessionID: meta.SessionID, ToolCallID: "toolu_askbridge_0", Q: twoQuestions[1], Index: 0, Total: 1, Round: 1})
	assert.JSONEq(t, string(want), string(got))
}
