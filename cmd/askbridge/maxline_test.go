package main

import (
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// --max-line reaches the relay: a longer request gets an error under its
// id, and the session goes on.
func TestMaxLineRefusesALongerRequest(t *testing.T) {
	t.Parallel()
	c := startClient(t, "--max-line=2000")
	c.send(map[string]any{"jsonrpc": "2.0", "id": "long", "method": "session/prompt", "params": map[string]any{"text": strings.Repeat("x", 3000)}})
	resp := c.response("long")
	assert.Contains(t, jsonString(resp["error"]), "the limit (--max-line) is 2000 bytes")
	assert.Contains(t, jsonString(resp["error"]), "-32600")
	c.setup()
}

func TestMaxLineMustNotBeNegative(t *testing.T) {
	t.Parallel()
	var stderr strings.Builder
	code := run([]string{"--max-line=-1", "--", "true"}, strings.NewReader(""), io.Discard, &stderr)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr.String(), "--max-line -1: must not be negative")
}
