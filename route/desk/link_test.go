package desk

import (
	"testing"

	"github.com/askbridge/askbridge/permission"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A question with a link (a sign-in's page) is listed with it in full, for
// the page to offer as a link; the answer is one of its options.
func TestLinkQuestionIsListedWithItsLink(t *testing.T) {
	s, board := newDesk(t, Options{})
	q := permission.Question{Question: "Sign in to ChatGPT and enter this code: ABCD-12345", Header: "Open link", Kind: permission.Link,
		Link:    "https://auth.openai.com/codex/device?x=1&y=2",
		Options: []permission.Option{{Label: "I opened it"}, {Label: "Cancel"}}}
	tk := board.Open(permission.Request{SessionID: "s", Questions: []permission.Question{q}})
	code, body := do(t, s, "GET", "/question", "", nil)
	require.Equal(t, 200, code, body)
	assert.Contains(t, body, `"link":"https://auth.openai.com/codex/device?x=1\u0026y=2"`)
	code, body = do(t, s, "POST", "/question/"+tk.ID+"/reply", replyBody([]string{"I opened it"}), nil)
	require.Equal(t, 200, code, body)
	assert.Equal(t, []string{"I opened it"}, tk.Result().Answers[0].Answer.Labels)
}
