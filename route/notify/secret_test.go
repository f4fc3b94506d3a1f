package notify

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

const typedSecret = "n0tify-s3cr3t"

func secretQuestion() permission.Question {
	q := question("Which deploy token?", "Token", "Staging", "Production")
	q.Kind.Secret = true
	return q
}

// The event every notifier sends is built with the secret's placeholder,
// even from a board event that carried the text.
func TestEventHidesASecretAnswer(t *testing.T) {
	q := secretQuestion()
	res := permission.Result{Source: permission.SourceDesk, Answers: []permission.Answered{
		{Question: q, Path: "questions[0]", Answer: permission.Answer{Labels: []string{"Staging"}, Other: true, Custom: typedSecret}}}}
	ev := fromBoard(permission.Event{Type: permission.EventReplied, Pending: permission.Pending{ID: "q1", SessionID: "s",
		Questions: []permission.Question{q}, State: permission.StateAnswered, Result: &res}}, deskURL, time.Now())
	require.Len(t, ev.Answers, 1)
	assert.Equal(t, Answer{Question: q.Question, Header: "Token", Path: "questions[0]", Answer: "Staging, " + permission.SecretText,
		Labels: []string{"Staging"}, Custom: permission.SecretText}, ev.Answers[0])
	doc, err := json.Marshal(ev)
	require.NoError(t, err)
	for what, s := range map[string]string{"JSON": string(doc), "title": ev.Title(), "text": ev.Text()} {
		assert.NotContains(t, s, typedSecret, what)
	}
	assert.Contains(t, string(doc), `"secret":true`, "a hook can tell the question was secret")
}

// Through the board: the hook's stdin and environment, the webhook's text
// and JSON bodies never hold the secret.
func TestNotifiersNeverSeeASecretAnswer(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the hook is an sh command line; on Windows a hook runs under cmd.exe")
	}
	dir := t.TempDir()
	t.Setenv("OUT", dir)
	got := make(chan received, 10)
	srv := webhookServer(t, func(r received) { got <- r })
	gotJSON := make(chan received, 10)
	srvJSON := webhookServer(t, func(r received) { gotJSON <- r })
	b := permission.NewBoard()
	// The environment first: the JSON's last line says the hook is done.
	hook := `env > "$OUT/$ASKBRIDGE_EVENT.env"; cat > "$OUT/$ASKBRIDGE_EVENT.json.tmp"; mv "$OUT/$ASKBRIDGE_EVENT.json.tmp" "$OUT/$ASKBRIDGE_EVENT.json"`
	start(t, b, Options{Hook: hook, URL: srv.URL + "/topic"})
	start(t, b, Options{URL: srvJSON.URL + "/hook#json"})
	q := secretQuestion()
	tk := ask(b, "s", q)
	require.NoError(t, b.Settle(tk.ID, permission.Result{Answers: []permission.Answered{
		{Question: q, Path: "questions[0]", Answer: permission.Answer{Other: true, Custom: typedSecret}}}}, permission.ByEditor()))

	var seen []string
	for range 2 {
		seen = append(seen, recv(t, got).body, recv(t, gotJSON).body)
	}
	doc := waitFile(t, filepath.Join(dir, "answered.json"), 2*time.Second)
	env, err := os.ReadFile(filepath.Join(dir, "answered.env"))
	require.NoError(t, err)
	seen = append(seen, string(doc), string(env))
	for _, s := range seen {
		assert.NotContains(t, s, typedSecret)
	}
	assert.Contains(t, string(doc), `"custom":"`+permission.SecretText+`"`)
	assert.Contains(t, seen[2], "Token: "+permission.SecretText, "the webhook's text of the answer")
}
