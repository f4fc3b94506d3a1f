package opencode

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

func recordedInput(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "permission", "testdata", "recorded", name))
	require.NoError(t, err)
	return b
}

var twoRecorded = []permission.Question{
	{Question: "Which database should the service use?", Header: "Database",
		Options: []permission.Option{{Label: "Postgres", Description: "relational"}, {Label: "SQLite", Description: "embedded"}}},
	{Question: "Which languages should the service support?", Header: "Languages", MultiSelect: true,
		Options: []permission.Option{{Label: "Go", Description: "fast builds"}, {Label: "Rust", Description: "no GC"}, {Label: "Python", Description: "scripts"}}},
}

func TestRecordedOpenCodeNormalises(t *testing.T) {
	opencode, err := decodeOpenCode(recordedInput(t, "opencode-rawinput.json"))
	require.NoError(t, err)
	assert.Equal(t, twoRecorded, opencode)
}

func TestDecodeOpenCodeReadsMultiple(t *testing.T) {
	qs, err := decodeOpenCode([]byte(`{"questions":[{"question":"Q?","header":"H","multiple":true,"custom":false,"options":[{"label":"a","description":"A"},{"label":"b","description":"B"}]},{"question":"R?","header":"R","options":[{"label":"c","description":""},{"label":"d","description":""}]}]}`))
	require.NoError(t, err)
	assert.True(t, qs[0].MultiSelect)
	assert.False(t, qs[1].MultiSelect)
}

// One answered set, with a follow-up, and a cancel, as OpenCode reads them.
func TestOpenCodeAnswers(t *testing.T) {
	auth := permission.Question{Question: "Which auth?", Header: "Auth", MultiSelect: true, Options: []permission.Option{{Label: "OAuth"}, {Label: "SAML"}}}
	provider := permission.Question{Question: "Which provider?", Header: "Provider", Options: []permission.Option{{Label: "GitHub"}, {Label: "Google"}}}
	r := permission.Result{Answers: []permission.Answered{
		{Question: auth, Answer: permission.Answer{Labels: []string{"OAuth", "SAML"}}, Path: "questions[0]", Index: 0},
		{Question: provider, Answer: permission.Answer{Other: true, Custom: "Gitea"}, Path: `questions[0].followUps["OAuth"][0]`, Index: -1},
	}}
	assert.Equal(t, [][]string{{"OAuth", "SAML"}, {}}, openCodeAnswers(2, r), "a question with no answer is an empty array, not null")
	b, err := json.Marshal(openCodeAnswers(1, permission.Result{Cancelled: true}))
	require.NoError(t, err)
	assert.JSONEq(t, `[[]]`, string(b))
}

func FuzzDecodeOpenCode(f *testing.F) {
	f.Add([]byte(`{"questions":[{"question":"Q?","header":"H","multiple":true,"custom":false,"options":[{"label":"a","description":"A"},{"label":"b","description":"B"}]}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if qs, err := decodeOpenCode(b); err == nil {
			checkRenders(t, qs)
		}
	})
}

func checkRenders(t *testing.T, qs []permission.Question) {
	permission.ValidateBridged(qs, permission.DefaultLimits())
	for i, q := range qs {
		if !json.Valid(permission.Render(permission.Prompt{SessionID: "s", ToolCallID: "t", Q: q, Index: i, Total: len(qs), Round: 2})) {
			t.Fatal("Render produced invalid JSON")
		}
	}
}
