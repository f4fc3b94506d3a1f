package adapter

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

// The dialects' own wire shapes: what each decodes into the question model
// and what each makes of an outcome. permission/testdata/recorded holds what
// real agents sent in the live tests, all asking the same two questions.

func recordedInput(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "permission", "testdata", "recorded", name))
	require.NoError(t, err)
	return b
}

var twoRecorded = []permission.Question{
	{Question: "Which database should the service use?", Header: "Database",
		Options: []permission.Option{{Label: "Postgres", Description: "relational"}, {Label: "SQLite", Description: "embedded"}}},
	{Question: "Which languages should the service support?", Header: "Languages", MultiSelect: true,
		Options: []permission.Option{{Label: "Go", Description: "fast builds"}, {Label: "Rust", Description: "no GC"}, {Label: "Python", Description: "scripts"}}},
}

func TestRecordedDialectsNormaliseAlike(t *testing.T) {
	claude, err := permission.DecodeAskInput(recordedInput(t, "claude-askuserquestion-input.json"))
	require.NoError(t, err)
	assert.Equal(t, twoRecorded, claude)
	qwen, err := decodeQwen(recordedInput(t, "qwen-toolcall.json"))
	require.NoError(t, err)
	assert.Equal(t, twoRecorded, qwen)
	opencode, err := decodeOpenCode(recordedInput(t, "opencode-rawinput.json"))
	require.NoError(t, err)
	assert.Equal(t, twoRecorded, opencode)
}

func TestDecodeQwenPrefersMetaQuestions(t *testing.T) {
	qs, err := decodeQwen([]byte(`{"toolCallId":"c","_meta":{"qwenQuestions":[{"question":"From meta?","header":"M","options":[{"label":"a"},{"label":"b"}]}]},"rawInput":{"questions":[{"question":"From rawInput?","header":"R","options":[{"label":"a"},{"label":"b"}]}]}}`))
	require.NoError(t, err)
	assert.Equal(t, "From meta?", qs[0].Question)
	qs, err = decodeQwen([]byte(`{"rawInput":{"questions":[{"question":"Q?","header":"R","multiSelect":true,"options":[{"label":"a"},{"label":"b"}]}]}}`))
	require.NoError(t, err)
	assert.True(t, qs[0].MultiSelect)
	_, err = decodeQwen([]byte(`{"rawInput":{"questions":{"x":1}}}`))
	assert.EqualError(t, err, "toolCall.rawInput.questions: expected an array of questions, got an object")
}

func TestDecodeOpenCodeReadsMultiple(t *testing.T) {
	qs, err := decodeOpenCode([]byte(`{"questions":[{"question":"Q?","header":"H","multiple":true,"custom":false,"options":[{"label":"a","description":"A"},{"label":"b","description":"B"}]},{"question":"R?","header":"R","options":[{"label":"c","description":""},{"label":"d","description":""}]}]}`))
	require.NoError(t, err)
	assert.True(t, qs[0].MultiSelect)
	assert.False(t, qs[1].MultiSelect)
}

func marshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// One answered set, with a follow-up, as every asker reads it.
func TestEncodersOfOneSetWithAFollowUp(t *testing.T) {
	raw := json.RawMessage(`[{"question":"Which auth?","header":"Auth","options":[{"label":"OAuth"},{"label":"SAML"}],"multiSelect":true,"x-extra":1}]`)
	auth := permission.Question{Question: "Which auth?", Header: "Auth", MultiSelect: true, Options: []permission.Option{{Label: "OAuth"}, {Label: "SAML"}}}
	provider := permission.Question{Question: "Which provider?", Header: "Provider", Options: []permission.Option{{Label: "GitHub"}, {Label: "Google"}}}
	r := permission.Result{Answers: []permission.Answered{
		{Question: auth, Answer: permission.Answer{Labels: []string{"OAuth", "SAML"}}, Path: "questions[0]", Index: 0},
		{Question: provider, Answer: permission.Answer{Other: true, Custom: "Gitea"}, Path: `questions[0].followUps["OAuth"][0]`, Index: -1},
	}}
	o := Outcome{Status: Answered, Result: r}
	assert.JSONEq(t, `{"behavior":"allow","updatedInput":{
		"questions":[{"question":"Which auth?","header":"Auth","options":[{"label":"OAuth"},{"label":"SAML"}],"multiSelect":true,"x-extra":1}],
		"answers":{"Which auth?":"OAuth, SAML","Which provider?":"Gitea"}}}`, marshal(t, newSDKResult(raw, o)),
		"the asker's own questions come back unchanged, unknown fields included; follow-ups are answered by their text")
	assert.Equal(t, map[string]string{"0": "OAuth, SAML"}, qwenAnswers(r), "Qwen has no index for a follow-up")
	assert.Equal(t, map[string]string{"Auth": "OAuth, SAML", "Provider": "Other (custom: Gitea)"}, CLIAnswers(r))
	assert.Equal(t, [][]string{{"OAuth", "SAML"}, {}}, openCodeAnswers(2, r), "a question with no answer is an empty array, not null")
	cli, err := cliResult(o)
	require.NoError(t, err)
	assert.JSONEq(t, `{"answers":{"Auth":"OAuth, SAML","Provider":"Other (custom: Gitea)"}}`, marshal(t, cli))
}

func TestEncodersOfACancel(t *testing.T) {
	o := Outcome{Status: Cancelled, Result: permission.Result{Cancelled: true, Reason: "the user dismissed the question"}}
	assert.JSONEq(t, `{"behavior":"deny","message":"User cancelled the question","interrupt":true}`, marshal(t, newSDKResult(nil, o)))
	assert.Empty(t, qwenAnswers(o.Result))
	assert.JSONEq(t, `[[]]`, marshal(t, openCodeAnswers(1, o.Result)))
	cli, err := cliResult(o)
	require.NoError(t, err)
	assert.JSONEq(t, `{"cancelled":true}`, marshal(t, cli))
	refused := Outcome{Status: Refused, Message: "limit"}
	assert.JSONEq(t, `{"behavior":"deny","message":"limit","interrupt":false}`, marshal(t, newSDKResult(nil, refused)))
}

func TestSDKResultWithoutQuestionsStillHasAList(t *testing.T) {
	assert.JSONEq(t, `{"behavior":"allow","updatedInput":{"questions":[],"answers":{}}}`, marshal(t, newSDKResult(nil, Outcome{})))
}

// The parsers of agent input must never panic, and whatever they accept
// must validate without panicking and render to valid JSON.

func FuzzDecodeQwen(f *testing.F) {
	f.Add([]byte(`{"toolCallId":"c","rawInput":{"questions":[{"question":"Q?","header":"H","options":[{"label":"a","description":""},{"label":"b","description":""}],"multiSelect":true}]}}`))
	f.Add([]byte(`{"_meta":{"qwenQuestions":[{"question":"Q?","header":"H","options":[]}]}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if qs, err := decodeQwen(b); err == nil {
			checkRenders(t, qs)
		}
	})
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
