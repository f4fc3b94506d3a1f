package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// `--questions desk --hub /wrong.sock` (a typo, or no hub yet): the
// question used to wait in silence, even with --verbose. Now the session
// is told within seconds that nowhere can answer it, and why.
func TestE2ENowhereToAnswerIsSaidAtOnceThroughTheBinary(t *testing.T) {
	t.Parallel()
	wrong := filepath.Join(t.TempDir(), "wrong.sock")
	c := startClient(t, "--questions", "desk", "--hub", wrong)
	s := c.setup()
	start := time.Now()
	c.prompt(s, "_askbridge/ask", map[string]any{"questions": []any{question("Which database?", "Database", false, "a", "b")}})
	text := c.agentSaw()
	assert.Less(t, time.Since(start), 5*time.Second)
	assert.True(t, strings.HasPrefix(text, "askbridge: nowhere can answer the question “Database” now"), text)
	assert.Contains(t, text, "no hub is connected at "+wrong)
	c.send(map[string]any{"jsonrpc": "2.0", "method": "session/cancel", "params": map[string]any{"sessionId": s}})
	assert.Contains(t, c.agentSaw(), `"behavior":"deny"`)
}
