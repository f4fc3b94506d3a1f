package desk

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/askbridge/askbridge/permission"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func replyBody(answers ...[]string) string {
	b, _ := json.Marshal(map[string]any{"answers": answers})
	return string(b)
}

// A picked label is the label, exactly: not cut by the typed-answer limit,
// not trimmed into another option.
func TestPickedLabelsAreExactAndNotLimited(t *testing.T) {
	long := strings.Repeat("L", 300)
	q := permission.Question{Question: "Which?", Header: "Which", Options: []permission.Option{{Label: long}, {Label: "A "}, {Label: "A"}}}
	s, board := newDesk(t, Options{NoCustom: true})
	for _, tt := range []struct{ reply, want string }{
		{long, long},
		{"A ", "A "},
		{"A", "A"},
		{"  A\t", "A"}, // not a label as sent: cleaned typed text that is one
	} {
		tk := board.Open(permission.Request{SessionID: "s", Questions: []permission.Question{q}})
		code, body := do(t, s, "POST", "/question/"+tk.ID+"/reply", replyBody([]string{tt.reply}), nil)
		require.Equal(t, 200, code, "%q: %s", tt.reply, body)
		assert.Equal(t, permission.Answer{Labels: []string{tt.want}}, tk.Result().Answers[0].Answer, "%q", tt.reply)
	}
}

// Typed answers are cleaned and limited as the client's customText is.
func TestTypedAnswersAreCleanedAndLimited(t *testing.T) {
	s, board := newDesk(t, Options{})
	tk := board.Open(permission.Request{SessionID: "s", Questions: []permission.Question{dbQ, langQ}})
	for _, tt := range []struct {
		answers [][]string
		want    string
	}{
		{[][]string{{strings.Repeat("é", permission.MaxTyped+1)}, {"Go"}}, "answers[0]: a typed answer of 1001 characters; the limit is 1000"},
		{[][]string{{"\x00\u202e\x1b "}, {"Go"}}, "answers[0]: an empty answer"},
		{[][]string{{"Postgres"}, {"Go", "Zig", "Nim"}}, "answers[1]: one typed answer per question"},
	} {
		code, body := do(t, s, "POST", "/question/"+tk.ID+"/reply", replyBody(tt.answers...), nil)
		assert.Equal(t, 400, code, body)
		assert.Contains(t, body, tt.want)
	}
	code, body := do(t, s, "POST", "/question/"+tk.ID+"/reply", replyBody([]string{"Maria\x00DB\x1b[2J\u202e"}, []string{"Go", "Z\u2066ig\r"}), nil)
	require.Equal(t, 200, code, body)
	res := tk.Result()
	assert.Equal(t, permission.Answer{Other: true, Custom: "MariaDB[2J"}, res.Answers[0].Answer)
	assert.Equal(t, permission.Answer{Labels: []string{"Go"}, Other: true, Custom: "Zig"}, res.Answers[1].Answer)

	one := board.Open(permission.Request{SessionID: "s", Questions: []permission.Question{dbQ}})
	code, body = do(t, s, "POST", "/api/task/answer", `{"session_id":"s","question_id":"`+one.ID+`","answer":"bidi\u202eevil"}`, nil)
	require.Equal(t, 200, code, body)
	assert.Equal(t, "bidievil", one.Result().Answers[0].Answer.Custom, "the task route cleans too")
}
