package inbox

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route/prompt"
)

// The terminal inbox asks a sign-in from the hub with its message, the
// address in full and its host; the answer is one of its two options.
func TestInboxShowsASignInLink(t *testing.T) {
	const listed = `{"id":"q1","kind":"question","questions":[{"question":"Sign in to ChatGPT and enter this code: ABCD-12345","header":"Open link",` +
		`"options":[{"label":"I opened it"},{"label":"Cancel"}],"multiple":false,"custom":false,"link":"https://auth.openai.com/codex/device"}],"step":0}`
	var s Set
	require.NoError(t, json.Unmarshal([]byte(listed), &s))
	qs := s.questions()
	require.Len(t, qs, 1)
	assert.Equal(t, "https://auth.openai.com/codex/device", qs[0].Link)

	var out strings.Builder
	res, err := permission.Ask(context.Background(), prompt.Peer{Prompter: prompt.NewPlain(strings.NewReader("1\n"), &out)},
		permission.Request{SessionID: "inbox", ToolCallID: "inbox-q1", Questions: qs, Round: 1})
	require.NoError(t, err)
	assert.Contains(t, out.String(), "ABCD-12345")
	assert.Contains(t, out.String(), "https://auth.openai.com/codex/device")
	assert.Contains(t, out.String(), "Host: auth.openai.com")
	assert.NotContains(t, out.String(), "Other", "nothing typed can answer it")
	require.Len(t, res.Answers, 1)
	assert.Equal(t, []string{"I opened it"}, res.Answers[0].Answer.Labels)
}
