package main

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A client that renders forms gets the agent's form as it is, and the hook
// still hears of it: asked, then answered with source client when the
// editor answers.
func TestE2EFormTheEditorRendersIsWatched(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("ASKBRIDGE_E2E_CURSOR", "1") // an agent that sends any request it is told to
	c := startClient(t, "--on-question", `cat > "`+dir+`/$ASKBRIDGE_QUESTION_ID.$ASKBRIDGE_EVENT.json"`)
	c.response(c.request("initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": map[string]any{"elicitation": map[string]any{"form": map[string]any{}}}}))
	s := c.response(c.request("session/new", map[string]any{"cwd": "/tmp", "mcpServers": []any{}}))["result"].(map[string]any)["sessionId"].(string)

	form := map[string]any{"mode": "form", "sessionId": s, "toolCallId": "toolu_1", "message": "Which database?",
		"requestedSchema": map[string]any{"type": "object", "properties": map[string]any{
			"question_0": map[string]any{"type": "string", "title": "Database", "oneOf": []any{
				map[string]any{"const": "Postgres", "title": "Postgres"}, map[string]any{"const": "SQLite", "title": "SQLite"}}},
			"question_0_custom": map[string]any{"type": "string", "title": "Other"}}}}
	c.cursorPrompt(s, "elicitation/create", form, false)
	req := c.next(func(m map[string]any) bool { return m["method"] == "elicitation/create" })
	assert.Equal(t, jsonString(form), jsonString(req["params"]), "the form reaches the editor as the agent sent it")

	asked := hookDoc(t, filepath.Join(dir, "q1.asked.json"), 5*time.Second)
	assert.Contains(t, jsonString(asked["questions"]), `"question":"Which database?"`)
	c.send(map[string]any{"jsonrpc": "2.0", "id": req["id"], "result": map[string]any{"action": "accept", "content": map[string]any{"question_0": "SQLite"}}})
	assert.Contains(t, c.agentSaw(), `"question_0":"SQLite"`, "the editor's answer reaches the agent")
	answered := hookDoc(t, filepath.Join(dir, "q1.answered.json"), 5*time.Second)
	require.Equal(t, "client", answered["source"])
	assert.Equal(t, "SQLite", answered["answers"].([]any)[0].(map[string]any)["answer"])
}
