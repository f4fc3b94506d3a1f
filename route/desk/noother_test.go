package desk

import (
	"testing"

	"github.com/askbridge/askbridge/permission"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A question whose asker cannot take typed text (a Fixed permission.AnswerKind)
// is listed with custom:false, and a typed answer to it is refused: the user
// is told, not the agent handed a dismissal.
func TestNoOtherQuestionTakesNoTypedAnswer(t *testing.T) {
	s, board := newDesk(t, Options{})
	q := dbQ
	q.Kind.Fixed = true
	tk := board.Open(permission.Request{SessionID: "s", Questions: []permission.Question{q}})
	code, body := do(t, s, "GET", "/question", "", nil)
	require.Equal(t, 200, code, body)
	assert.Contains(t, body, `"custom":false`)

	code, body = do(t, s, "POST", "/question/"+tk.ID+"/reply", replyBody([]string{"CockroachDB"}), nil)
	assert.Equal(t, 400, code, body)
	assert.Contains(t, body, `is not an option of`)
	code, body = do(t, s, "POST", "/question/"+tk.ID+"/reply", replyBody([]string{q.Options[0].Label}), nil)
	require.Equal(t, 200, code, body)
	assert.Equal(t, []string{q.Options[0].Label}, tk.Result().Answers[0].Answer.Labels)
}
