package opencode

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/permission/permissiontest"
)

func TestRecordedOpenCodeNormalises(t *testing.T) {
	opencode, err := decodeOpenCode(permissiontest.Recorded(t, "opencode-rawinput.json"))
	require.NoError(t, err)
	assert.Equal(t, permissiontest.TwoRecorded, opencode)
}

func TestDecodeOpenCodeReadsMultiple(t *testing.T) {
	qs, err := decodeOpenCode([]byte(`{"questions":[{"question":"Q?","header":"H","multiple":true,"custom":false,"options":[{"label":"a","description":"A"},{"label":"b","description":"B"}]},{"question":"R?","header":"R","options":[{"label":"c","description":""},{"label":"d","description":""}]}]}`))
	require.NoError(t, err)
	assert.True(t, qs[0].Kind.Many)
	assert.False(t, qs[1].Kind.Many)
}

// One answered set, with a follow-up, and a cancel, as OpenCode reads them.
func TestOpenCodeAnswers(t *testing.T) {
	auth := permission.Question{Question: "Which auth?", Header: "Auth", Kind: permission.Multi, Options: []permission.Option{{Label: "OAuth"}, {Label: "SAML"}}}
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
			permissiontest.CheckRenders(t, qs)
		}
	})
}
