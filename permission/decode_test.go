package permission

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecodeAskInput(t *testing.T) {
	qs, err := DecodeAskInput([]byte(`{"questions":[{"question":"Auth?","header":"Auth","multiSelect":true,"options":[{"label":"OAuth","description":"tokens"},"Basic"],"followUps":{"OAuth":[{"question":"Provider?","header":"Provider","options":[{"label":"GitHub"},{"label":"Google"}]}]}}],"extra":1}`))
	require.NoError(t, err)
	require.Len(t, qs, 1)
	assert.True(t, qs[0].MultiSelect)
	assert.Equal(t, []Option{{"OAuth", "tokens"}, {"Basic", ""}}, qs[0].Options)
	assert.Equal(t, "Provider?", qs[0].FollowUps["OAuth"][0].Question)

	for input, want := range map[string]string{
		`[]`:                             "input: expected an object with questions, got an array",
		`{}`:                             "questions: expected an array of questions, got nothing",
		`{"questions":[1]}`:              "questions[0]: expected an object, got a number",
		`{"questions":[{"header":"H"}]}`: "questions[0].question: required",
		`{"questions":[{"question":"Q","options":[{"label":2}]}]}`:          "questions[0].options[0].label: expected a string, got a number",
		`{"questions":[{"question":"Q","options":[],"multiSelect":"yes"}]}`: "questions[0].multiSelect: expected a boolean, got a string",
		`{"questions":[{"question":"Q","options":[],"followUps":[]}]}`:      "questions[0].followUps: expected an object from option label to questions, got an array",
	} {
		_, err := DecodeAskInput([]byte(input))
		assert.EqualError(t, err, want, input)
	}
}

func TestDecodeQwenPrefersMetaQuestions(t *testing.T) {
	qs, err := DecodeQwen([]byte(`{"toolCallId":"c","_meta":{"qwenQuestions":[{"question":"From meta?","header":"M","options":[{"label":"a"},{"label":"b"}]}]},"rawInput":{"questions":[{"question":"From rawInput?","header":"R","options":[{"label":"a"},{"label":"b"}]}]}}`))
	require.NoError(t, err)
	assert.Equal(t, "From meta?", qs[0].Question)
	qs, err = DecodeQwen([]byte(`{"rawInput":{"questions":[{"question":"Q?","header":"R","multiSelect":true,"options":[{"label":"a"},{"label":"b"}]}]}}`))
	require.NoError(t, err)
	assert.True(t, qs[0].MultiSelect)
	_, err = DecodeQwen([]byte(`{"rawInput":{"questions":{"x":1}}}`))
	assert.EqualError(t, err, "toolCall.rawInput.questions: expected an array of questions, got an object")
}

func TestDecodeOpenCodeReadsMultipleAndCustom(t *testing.T) {
	qs, err := DecodeOpenCode([]byte(`{"questions":[{"question":"Q?","header":"H","multiple":true,"custom":false,"options":[{"label":"a","description":"A"},{"label":"b","description":"B"}]},{"question":"R?","header":"R","options":[{"label":"c","description":""},{"label":"d","description":""}]}]}`))
	require.NoError(t, err)
	assert.True(t, qs[0].MultiSelect)
	assert.False(t, qs[0].Custom)
	assert.True(t, qs[1].Custom, "custom defaults to true")
}

func TestEncoders(t *testing.T) {
	qs := []Question{q("Which database?", "Database", "Postgres", "SQLite"), q("Which languages?", "Languages", "Go", "Rust", "C")}
	qs[1].MultiSelect = true
	r := Result{Answers: []Answered{
		{Question: qs[0], Answer: Answer{Other: true, Custom: "MariaDB"}, Index: 0},
		{Question: qs[1], Answer: Answer{Labels: []string{"Go", "C"}}, Index: 1},
		{Question: q("Why?", "Why", "a", "b"), Answer: Answer{Other: true}, Index: -1},
	}}
	sdk, _ := json.Marshal(SDKResult(qs, r))
	assert.JSONEq(t, `{"behavior":"allow","updatedInput":{"questions":[{"question":"Which database?","header":"Database","options":[{"label":"Postgres"},{"label":"SQLite"}],"multiSelect":false},{"question":"Which languages?","header":"Languages","options":[{"label":"Go"},{"label":"Rust"},{"label":"C"}],"multiSelect":true}],"answers":{"Which database?":"MariaDB","Which languages?":"Go, C","Why?":"`+jsonEscape(OtherWithoutText)+`"}}}`, string(sdk))
	assert.Equal(t, map[string]string{"0": "MariaDB", "1": "Go, C"}, QwenAnswers(r))
	assert.Equal(t, map[string]string{"Database": "Other (custom: MariaDB)", "Languages": "Go, C", "Why": "Other"}, CLIAnswers(r))
	assert.Equal(t, [][]string{{"MariaDB"}, {"Go", "C"}}, OpenCodeAnswers(2, r))
	cancel, _ := json.Marshal(SDKResult(qs, Result{Cancelled: true}))
	assert.JSONEq(t, `{"behavior":"deny","message":"User cancelled the question","interrupt":true}`, string(cancel))
	assert.Equal(t, Result{Answers: []Answered{
		{Question: q("A?", "A", "x", "y (Recommended)"), Answer: Answer{Labels: []string{"y (Recommended)"}}, Path: "questions[0]", Index: 0},
		{Question: q("B?", "B", "x", "y"), Answer: Answer{Labels: []string{"x"}}, Path: "questions[1]", Index: 1},
	}, Source: SourceTimeout}, Recommended([]Question{q("A?", "A", "x", "y (Recommended)"), q("B?", "B", "x", "y")}))
}

func jsonEscape(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}
