package permission

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// One answered set, with a follow-up, as every asker reads it.
func TestEncodersOfOneSetWithAFollowUp(t *testing.T) {
	raw := json.RawMessage(`[{"question":"Which auth?","header":"Auth","options":[{"label":"OAuth"},{"label":"SAML"}],"multiSelect":true,"x-extra":1}]`)
	auth := multi(q("Which auth?", "Auth", "OAuth", "SAML"))
	provider := q("Which provider?", "Provider", "GitHub", "Google")
	r := Result{Answers: []Answered{
		{Question: auth, Answer: Answer{Labels: []string{"OAuth", "SAML"}}, Path: "questions[0]", Index: 0},
		{Question: provider, Answer: Answer{Other: true, Custom: "Gitea"}, Path: `questions[0].followUps["OAuth"][0]`, Index: -1},
	}}

	sdk, err := json.Marshal(SDKResult(raw, r))
	require.NoError(t, err)
	assert.JSONEq(t, `{"behavior":"allow","updatedInput":{
		"questions":[{"question":"Which auth?","header":"Auth","options":[{"label":"OAuth"},{"label":"SAML"}],"multiSelect":true,"x-extra":1}],
		"answers":{"Which auth?":"OAuth, SAML","Which provider?":"Gitea"}}}`, string(sdk),
		"the asker's own questions come back unchanged, unknown fields included; follow-ups are answered by their text")

	assert.Equal(t, map[string]string{"0": "OAuth, SAML"}, QwenAnswers(r), "Qwen has no index for a follow-up")
	assert.Equal(t, map[string]string{"Auth": "OAuth, SAML", "Provider": "Other (custom: Gitea)"}, CLIAnswers(r))
	assert.Equal(t, [][]string{{"OAuth", "SAML"}, {}}, OpenCodeAnswers(2, r), "a question with no answer is an empty array, not null")
}

func TestEncodersOfACancel(t *testing.T) {
	r := Result{Cancelled: true, Reason: "the user dismissed the question"}
	sdk, err := json.Marshal(SDKResult(nil, r))
	require.NoError(t, err)
	assert.JSONEq(t, `{"behavior":"deny","message":"User cancelled the question","interrupt":true}`, string(sdk))
	assert.Empty(t, QwenAnswers(r))
	assert.Empty(t, CLIAnswers(r))
	oc, err := json.Marshal(OpenCodeAnswers(1, r))
	require.NoError(t, err)
	assert.JSONEq(t, `[[]]`, string(oc))
}

func TestSDKResultWithoutQuestionsStillHasAList(t *testing.T) {
	sdk, err := json.Marshal(SDKResult(nil, Result{}))
	require.NoError(t, err)
	assert.JSONEq(t, `{"behavior":"allow","updatedInput":{"questions":[],"answers":{}}}`, string(sdk))
}

func TestAnswerText(t *testing.T) {
	for _, tt := range []struct {
		a    Answer
		want string
	}{
		{Answer{Labels: []string{"Go"}}, "Go"},
		{Answer{Labels: []string{"Go", "Rust"}}, "Go, Rust"},
		{Answer{Other: true, Custom: "Zig"}, "Zig"},
		{Answer{Labels: []string{"Go"}, Other: true, Custom: "Zig"}, "Go, Zig"},
		{Answer{Other: true}, OtherWithoutText},
		{Answer{}, ""},
	} {
		assert.Equal(t, tt.want, tt.a.Text(), "%+v", tt.a)
	}
}
