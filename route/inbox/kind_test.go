package inbox

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route/prompt"
)

// inboxCount is a kind registered as a new kind's file registers it; the
// inbox has never heard of it.
var inboxCount = permission.RegisterKind(permission.AnswerKind{Name: "inbox-count", Input: "number", Hint: "a count"}, func(s string) error {
	if _, err := strconv.Atoi(s); err != nil {
		return errors.New("a whole number")
	}
	return nil
})

// The inbox reads a question's kind by its name from the hub's list, and
// the terminal asks it as its kind says: what to type, and again until
// the text is one.
func TestInboxAsksAKindByItsName(t *testing.T) {
	const listed = `{"id":"q1","kind":"question","questions":[{"question":"How many replicas?","header":"Replicas",` +
		`"options":[{"label":"As before"}],"multiple":false,"kind":"inbox-count","input":"number","hint":"a count"}],"step":0}`
	var s Set
	require.NoError(t, json.Unmarshal([]byte(listed), &s))
	qs := s.questions()
	require.Len(t, qs, 1)
	assert.Equal(t, inboxCount, qs[0].Kind)

	var out strings.Builder
	res, err := permission.Ask(context.Background(), prompt.Peer{Prompter: prompt.NewPlain(strings.NewReader("0\nlots\n0\n3\n"), &out)},
		permission.Request{SessionID: "inbox", ToolCallID: "inbox-q1", Questions: qs, Round: 1})
	require.NoError(t, err)
	assert.Contains(t, out.String(), "Your answer (a count): lots")
	assert.Contains(t, out.String(), `"lots" is not a count (a whole number)`)
	require.Len(t, res.Answers, 1)
	assert.Equal(t, permission.Answer{Other: true, Custom: "3"}, res.Answers[0].Answer)
}
