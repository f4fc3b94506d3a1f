package asktool

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/permission/permissiontest"
)

// The dialects' own wire shapes: what each decodes into the question model
// and what each makes of an outcome. permission/testdata/recorded holds what
// real agents sent in the live tests, all asking the same two questions.

func TestRecordedAskInputNormalises(t *testing.T) {
	claude, err := permission.DecodeAskInput(permissiontest.Recorded(t, "claude-askuserquestion-input.json"))
	require.NoError(t, err)
	assert.Equal(t, permissiontest.TwoRecorded, claude)
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
	auth := permission.Question{Question: "Which auth?", Header: "Auth", Kind: permission.Multi, Options: []permission.Option{{Label: "OAuth"}, {Label: "SAML"}}}
	provider := permission.Question{Question: "Which provider?", Header: "Provider", Options: []permission.Option{{Label: "GitHub"}, {Label: "Google"}}}
	r := permission.Result{Answers: []permission.Answered{
		{Question: auth, Answer: permission.Answer{Labels: []string{"OAuth", "SAML"}}, Path: "questions[0]", Index: 0},
		{Question: provider, Answer: permission.Answer{Other: true, Custom: "Gitea"}, Path: `questions[0].followUps["OAuth"][0]`, Index: -1},
	}}
	o := dialect.Outcome{Status: dialect.Answered, Result: r}
	assert.JSONEq(t, `{"behavior":"allow","updatedInput":{
		"questions":[{"question":"Which auth?","header":"Auth","options":[{"label":"OAuth"},{"label":"SAML"}],"multiSelect":true,"x-extra":1}],
		"answers":{"Which auth?":"OAuth, SAML","Which provider?":"Gitea"}}}`, marshal(t, newSDKResult(raw, o)),
		"the asker's own questions come back unchanged, unknown fields included; follow-ups are answered by their text")
	assert.Equal(t, map[string]string{"Auth": "OAuth, SAML", "Provider": "Other (custom: Gitea)"}, CLIAnswers(r))
	cli, err := cliResult(o)
	require.NoError(t, err)
	assert.JSONEq(t, `{"answers":{"Auth":"OAuth, SAML","Provider":"Other (custom: Gitea)"}}`, marshal(t, cli))
}

func TestEncodersOfACancel(t *testing.T) {
	o := dialect.Outcome{Status: dialect.Cancelled, Result: permission.Result{Cancelled: true, Reason: "the user dismissed the question"}}
	assert.JSONEq(t, `{"behavior":"deny","message":"User cancelled the question","interrupt":true}`, marshal(t, newSDKResult(nil, o)))
	cli, err := cliResult(o)
	require.NoError(t, err)
	assert.JSONEq(t, `{"cancelled":true}`, marshal(t, cli))
	refused := dialect.Outcome{Status: dialect.Refused, Message: "limit"}
	assert.JSONEq(t, `{"behavior":"deny","message":"limit","interrupt":false}`, marshal(t, newSDKResult(nil, refused)))
}

func TestSDKResultWithoutQuestionsStillHasAList(t *testing.T) {
	assert.JSONEq(t, `{"behavior":"allow","updatedInput":{"questions":[],"answers":{}}}`, marshal(t, newSDKResult(nil, dialect.Outcome{})))
}

func TestCLIResultOfATimeout(t *testing.T) {
	cli, err := cliResult(dialect.Outcome{Status: dialect.TimedOut})
	require.NoError(t, err)
	assert.JSONEq(t, `{"timedOut":true,"message":"`+permission.NoAnswerInTime+`"}`, marshal(t, cli))
}
