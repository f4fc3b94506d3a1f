package permission

import (
	"encoding/json"
	"reflect"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// toyPercent is a kind registered beyond the flags, as a new kind's file
// registers it (docs/development.md, "Adding an answer kind").
var toyPercent = RegisterKind(AnswerKind{Name: "toy-percent", Input: "number", Hint: "a percentage"}, func(s string) error {
	n, err := strconv.Atoi(s)
	if err == nil && (n < 0 || n > 100) {
		return strconv.ErrRange
	}
	return err
})

// Each kind of the table is written as the flags it was before kinds, so
// the SDK-style updatedInput, the hub's link and history keep their bytes.
func TestTheTablesKindsAreWrittenAsTheirFlags(t *testing.T) {
	opts := []Option{{Label: "A"}}
	for kind, want := range map[AnswerKind]string{
		Choice:     `{"question":"Q?","header":"H","options":[{"label":"A"}],"multiSelect":false}`,
		Multi:      `{"question":"Q?","header":"H","options":[{"label":"A"}],"multiSelect":true}`,
		Fixed:      `{"question":"Q?","header":"H","options":[{"label":"A"}],"multiSelect":false,"noOther":true}`,
		FixedMulti: `{"question":"Q?","header":"H","options":[{"label":"A"}],"multiSelect":true,"noOther":true}`,
		Secret:     `{"question":"Q?","header":"H","options":[{"label":"A"}],"multiSelect":false,"secret":true}`,
		Link:       `{"question":"Q?","header":"H","options":[{"label":"A"}],"multiSelect":false,"noOther":true,"link":"https://x.example/"}`,
		toyPercent: `{"question":"Q?","header":"H","options":[{"label":"A"}],"multiSelect":false,"kind":"toy-percent"}`,
	} {
		q := Question{Question: "Q?", Header: "H", Options: opts, Kind: kind}
		if kind.Link {
			q.Link = "https://x.example/"
		}
		b, err := json.Marshal(q)
		require.NoError(t, err)
		assert.Equal(t, want, string(b), kind.String())
		var back Question
		require.NoError(t, json.Unmarshal(b, &back))
		assert.Equal(t, q, back, kind.String())
	}
}

func TestAFollowUpKeepsItsKindOnTheWire(t *testing.T) {
	q := Question{Question: "Q?", Header: "H", Options: []Option{{Label: "A"}},
		FollowUps: map[string][]Question{"A": {{Question: "Which?", Header: "W", Options: []Option{{Label: "x"}}, Kind: FixedMulti}}}}
	b, err := json.Marshal(q)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"followUps":{"A":[{"question":"Which?","header":"W","options":[{"label":"x"}],"multiSelect":true,"noOther":true}]}`)
	var back Question
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, q, back)
}

// A kind a newer askbridge registered is kept as read, with what its flags
// say, so a hub passes it on unchanged.
func TestAnUnknownKindIsKeptAsRead(t *testing.T) {
	in := `{"question":"Q?","header":"H","options":[],"multiSelect":true,"kind":"date"}`
	var q Question
	require.NoError(t, json.Unmarshal([]byte(in), &q))
	assert.Equal(t, AnswerKind{Name: "date", Many: true}, q.Kind)
	assert.NoError(t, q.Kind.Check("whatever"), "no check is known for it here")
	b, err := json.Marshal(q)
	require.NoError(t, err)
	assert.Equal(t, in, string(b))
}

func TestARegisteredKindChecksItsTypedText(t *testing.T) {
	assert.NoError(t, toyPercent.Check("42"))
	err := toyPercent.Check("142")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"142" is not a percentage`)
	assert.NoError(t, Choice.Check("anything"))
	k, ok := KindNamed("toy-percent")
	assert.True(t, ok)
	assert.Equal(t, toyPercent, k)
	assert.Panics(t, func() { RegisterKind(AnswerKind{Name: "toy-percent"}, nil) })
	assert.Panics(t, func() { RegisterKind(AnswerKind{}, nil) })
}

// A question says what answer it takes through its kind only: a flag
// beside it would be one more thing every renderer tests.
func TestQuestionHasNoFlagsBesideItsKind(t *testing.T) {
	typ := reflect.TypeFor[Question]()
	for i := range typ.NumField() {
		assert.NotEqual(t, reflect.Bool, typ.Field(i).Type.Kind(), "Question.%s: put it in AnswerKind", typ.Field(i).Name)
	}
}

func other(text string) string {
	return `{"outcome":{"outcome":"selected","optionId":"__other__","_meta":{"customText":"` + text + `"}}}`
}

// A typed answer its kind refuses is not the answer: the question is asked
// again, saying why, and the request says what the text must be.
func TestAQuestionIsAskedAgainWhenItsKindRefusesTheTypedText(t *testing.T) {
	qq := q("How much of the budget?", "Budget", "All of it")
	qq.Kind = toyPercent
	peer := &fakePeer{respond: script(other("142"), other("42"))}
	res, err := Ask(t.Context(), peer, Request{SessionID: "s", Questions: []Question{qq}})
	require.NoError(t, err)
	assert.Equal(t, Answer{Other: true, Custom: "42"}, res.Answers[0].Answer)
	require.Len(t, peer.asked, 2)
	meta := peer.asked[0]["_meta"].(map[string]any)["askUserQuestion"].(map[string]any)
	assert.Equal(t, "toy-percent", meta["kind"])
	assert.Equal(t, "number", meta["input"])
	assert.Equal(t, "a percentage", meta["hint"])
	assert.NotContains(t, mustJSON(peer.asked[0]["toolCall"]), "answer again")
	assert.Contains(t, mustJSON(peer.asked[1]["toolCall"]), `\"142\" is not a percentage (value out of range): answer again.`)
}

func TestAClientThatKeepsSendingRefusedTextFailsTheSet(t *testing.T) {
	qq := q("How much of the budget?", "Budget", "All of it")
	qq.Kind = toyPercent
	peer := &fakePeer{respond: func(int, map[string]any) (string, error) { return other("lots"), nil }}
	_, err := Ask(t.Context(), peer, Request{SessionID: "s", Questions: []Question{qq}})
	var notOfKind *NotOfKind
	require.ErrorAs(t, err, &notOfKind)
	assert.Len(t, peer.asked, maxRefused+1)
}

// The flags' kinds put nothing new in a request's _meta.
func TestAChoiceRequestsMetaIsAsItWas(t *testing.T) {
	b := Render(Prompt{SessionID: "s", ToolCallID: "c", Q: q("Which?", "H", "a", "b"), Total: 1, Round: 1})
	assert.Contains(t, string(b), `"_meta":{"askUserQuestion":{"multiSelect":false,"index":0,"total":1,"round":1},"claudeCode":`)
}
