package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

// codexSecretForm is elicitation/create's params as codex-acp sends them
// for a question marked isSecret: a choice and its note, both secret.
func codexSecretForm(session, call string) map[string]any {
	secret := map[string]any{"codex": map[string]any{"isSecret": true}}
	return map[string]any{"sessionId": session, "toolCallId": call, "mode": "form", "message": "Codex needs your input to continue.",
		"_meta": map[string]any{"codex": map[string]any{"autoResolutionMs": nil}},
		"requestedSchema": map[string]any{"type": "object", "required": []any{"token"}, "properties": map[string]any{
			"token": map[string]any{"type": "string", "title": "Which deploy token?", "description": "Token", "_meta": secret, "oneOf": []any{
				map[string]any{"const": "Staging", "title": "Staging"}, map[string]any{"const": "Production", "title": "Production"},
				map[string]any{"const": "None of the above", "title": "None of the above", "description": "Provide a different answer in the note field."}}},
			"token_note": map[string]any{"type": "string", "title": "Additional answer or note",
				"_meta": map[string]any{"codex": map[string]any{"isSecret": true, "role": "user_note", "questionId": "token"}}},
		}}}
}

// A Codex secret typed once in the editor and once at the desk reaches the
// agent, and nothing else: not the desk's history, the hook's input or
// environment, the webhook's bodies, the recording or the debug log. The
// recording still becomes a fixture that replays. The agent is the
// scripted Cursor, which sends a request as the prompt spells it (the ACP
// SDK's agent sends no sessionId with a form).
func TestE2ESecretAnswerReachesOnlyTheAgent(t *testing.T) {
	skipShHook(t)
	const inEditor, atDesk = "edit0r-s3cr3t-1", "d3sk-s3cr3t-2"
	dir := t.TempDir()
	rec, logFile, hooks := filepath.Join(dir, "session.jsonl"), filepath.Join(dir, "askbridge.log"), filepath.Join(dir, "hooks")
	require.NoError(t, os.Mkdir(hooks, 0o700))
	var mu sync.Mutex
	var posted []string
	webhook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		posted = append(posted, jsonString(r.Header)+"\n"+string(body))
		mu.Unlock()
	}))
	defer webhook.Close()
	t.Setenv("ASKBRIDGE_E2E_CURSOR", "1")
	// The hook also prints the event: askbridge logs a hook's output at
	// debug level.
	hook := `f="` + hooks + `/$ASKBRIDGE_QUESTION_ID.$ASKBRIDGE_EVENT"; env > "$f.env"; cat > "$f.tmp"; cat "$f.tmp"; mv "$f.tmp" "$f.json"`
	c := startClient(t, "--desk", "127.0.0.1:0", "--on-question", hook, "--notify-url", webhook.URL+"/topic",
		"--record", rec, "--log-file", logFile, "--log-level", "debug")
	desk := deskBase(t, logFile)
	pairDesk(t, c, desk)
	s := c.setup()

	turn := c.prompt(s, "elicitation/create", codexSecretForm(s, "call_token_1"))
	c.reply(c.permissionRequest(), `{"outcome":{"outcome":"selected","optionId":"__other__","_meta":{"customText":"`+inEditor+`"}}}`)
	assert.Contains(t, c.agentSaw(), `"token_note":"`+inEditor+`"`, "the agent gets the secret typed in the editor")
	c.response(turn)

	turn = c.prompt(s, "elicitation/create", codexSecretForm(s, "call_token_2"))
	c.permissionRequest()
	deskPost(t, desk+"question/"+deskPending(t, desk, 0)+"/reply", `{"answers":[["`+atDesk+`"]]}`)
	assert.Contains(t, c.agentSaw(), `"token_note":"`+atDesk+`"`, "the agent gets the secret typed at the desk")
	c.response(turn)

	history := string(deskDo(t, "GET", desk+"api/session/"+s+"/history", ""))
	assert.Equal(t, 2, strings.Count(history, `"Which deploy token?":"`+permission.SecretText+`"`), history)
	for _, f := range []string{"q1.answered.json", "q2.answered.json"} {
		hookDoc(t, filepath.Join(hooks, f), 10*time.Second)
	}
	c.stop()

	places := map[string]string{"desk history": history, "record": readFile(t, rec), "log": readFile(t, logFile)}
	files, _ := filepath.Glob(filepath.Join(hooks, "*"))
	assert.Len(t, files, 8, "asked and answered, twice, as JSON and environment")
	for _, f := range files {
		places["hook "+filepath.Base(f)] = readFile(t, f)
	}
	mu.Lock()
	require.Len(t, posted, 4, "asked and answered, twice")
	allPosted := strings.Join(posted, "\n")
	for i, p := range posted {
		places["webhook post "+string(rune('1'+i))] = p
	}
	mu.Unlock()
	for where, text := range places {
		for _, secret := range []string{inEditor, atDesk} {
			assert.NotContains(t, text, secret, "%s holds a secret", where)
		}
	}
	assert.Contains(t, places["hook q2.answered.json"], `"custom":"`+permission.SecretText+`"`)
	assert.Equal(t, 2, strings.Count(allPosted, "Token: "+permission.SecretText), "the webhook's text of each answer")
	assert.Contains(t, places["record"], `"customText":"`+permission.SecretText+`"`)
	assert.Contains(t, places["record"], `"answers":[["`+permission.SecretText+`"]]`, "the desk's line")
	assert.Contains(t, places["log"], "on-question hook output", "the log had the hook's output to show")

	fixture := filepath.Join(dir, "codex-secret-recorded.txtar")
	code, _, errOut := runBinary(t, "", "record-fixture", rec, fixture)
	require.Equal(t, 0, code, errOut)
	code, out, errOut := runBinary(t, "", "replay", "-update", fixture)
	require.Equal(t, 0, code, out+errOut)
	code, out, _ = runBinary(t, "", "replay", fixture)
	assert.Equal(t, 0, code, out)
	assert.Contains(t, out, "PASS "+fixture+"\n1 passed, 0 failed\n")
	assert.NotContains(t, readFile(t, fixture), inEditor)
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}
