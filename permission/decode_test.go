package permission

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecodeAskInput(t *testing.T) {
	qs, err := DecodeAskInput([]byte(`{"questions":[{"question":"Auth?","header":"Auth","multiSelect":true,"options":[{"label":"OAuth","description":"tokens"},"Basic"],"followUps":{"OAuth":[{"question":"Provider?","header":"Provider","options":[{"label":"GitHub"},{"label":"Google"}]}]}}],"extra":1}`))
	require.NoError(t, err)
	require.Len(t, qs, 1)
	assert.True(t, qs[0].Kind.Many)
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

func TestRecommended(t *testing.T) {
	assert.Equal(t, Result{Answers: []Answered{
		{Question: q("A?", "A", "x", "y (Recommended)"), Answer: Answer{Labels: []string{"y (Recommended)"}}, Path: "questions[0]", Index: 0},
		{Question: q("B?", "B", "x", "y"), Answer: Answer{Labels: []string{"x"}}, Path: "questions[1]", Index: 1},
	}, Source: SourceTimeout}, Recommended([]Question{q("A?", "A", "x", "y (Recommended)"), q("B?", "B", "x", "y")}))
}
