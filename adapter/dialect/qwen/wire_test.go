package qwen

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/permission/permissiontest"
)

func TestRecordedQwenNormalises(t *testing.T) {
	qwen, err := decodeQwen(permissiontest.Recorded(t, "qwen-toolcall.json"))
	require.NoError(t, err)
	assert.Equal(t, permissiontest.TwoRecorded, qwen)
}

func TestDecodeQwenPrefersMetaQuestions(t *testing.T) {
	qs, err := decodeQwen([]byte(`{"toolCallId":"c","_meta":{"qwenQuestions":[{"question":"From meta?","header":"M","options":[{"label":"a"},{"label":"b"}]}]},"rawInput":{"questions":[{"question":"From rawInput?","header":"R","options":[{"label":"a"},{"label":"b"}]}]}}`))
	require.NoError(t, err)
	assert.Equal(t, "From meta?", qs[0].Question)
	qs, err = decodeQwen([]byte(`{"rawInput":{"questions":[{"question":"Q?","header":"R","multiSelect":true,"options":[{"label":"a"},{"label":"b"}]}]}}`))
	require.NoError(t, err)
	assert.True(t, qs[0].Kind.Many)
	_, err = decodeQwen([]byte(`{"rawInput":{"questions":{"x":1}}}`))
	assert.EqualError(t, err, "toolCall.rawInput.questions: expected an array of questions, got an object")
}

// One answered set, with a follow-up, as Qwen reads it.
func TestQwenAnswersOfOneSetWithAFollowUp(t *testing.T) {
	auth := permission.Question{Question: "Which auth?", Header: "Auth", Kind: permission.Multi, Options: []permission.Option{{Label: "OAuth"}, {Label: "SAML"}}}
	provider := permission.Question{Question: "Which provider?", Header: "Provider", Options: []permission.Option{{Label: "GitHub"}, {Label: "Google"}}}
	r := permission.Result{Answers: []permission.Answered{
		{Question: auth, Answer: permission.Answer{Labels: []string{"OAuth", "SAML"}}, Path: "questions[0]", Index: 0},
		{Question: provider, Answer: permission.Answer{Other: true, Custom: "Gitea"}, Path: `questions[0].followUps["OAuth"][0]`, Index: -1},
	}}
	assert.Equal(t, map[string]string{"0": "OAuth, SAML"}, qwenAnswers(r), "Qwen has no index for a follow-up")
	assert.Empty(t, qwenAnswers(permission.Result{Cancelled: true}))
}

func FuzzDecodeQwen(f *testing.F) {
	f.Add([]byte(`{"toolCallId":"c","rawInput":{"questions":[{"question":"Q?","header":"H","options":[{"label":"a","description":""},{"label":"b","description":""}],"multiSelect":true}]}}`))
	f.Add([]byte(`{"_meta":{"qwenQuestions":[{"question":"Q?","header":"H","options":[]}]}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if qs, err := decodeQwen(b); err == nil {
			permissiontest.CheckRenders(t, qs)
		}
	})
}
