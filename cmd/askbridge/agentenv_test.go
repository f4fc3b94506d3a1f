package main

import (
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The agent, and every command it runs, gets none of askbridge's secrets:
// not in its environment (nor from /proc: TestAgentCannotReadAskbridgesEnviron).
// It keeps the ask socket. (The MCP server entry holds the socket
// and the tag only: TestMCPAskListsItsServerAfterTheClientsOnes.)
func TestAgentGetsNoTokenOfAskbridges(t *testing.T) {
	if _, err := exec.LookPath("env"); err != nil {
		t.Skip("the agent's shell command is env, which is not on PATH here")
	}
	const deskToken, notifyToken = "desk-secret-0123456789", "notify-secret-0123456789"
	t.Setenv("ASKBRIDGE_DESK_TOKEN", deskToken)
	t.Setenv("ASKBRIDGE_NOTIFY_TOKEN", notifyToken)
	t.Setenv("ASKBRIDGE_OTHER_SECRET", "x")
	t.Setenv("ASKBRIDGE_SESSION", "kept-session")
	c := startClient(t, "--desk", "127.0.0.1:0", "--notify-url", "http://127.0.0.1:9/topic", "--inject-ask", "always")
	s := c.setup()

	c.prompt(s, "shell", map[string]any{"argv": []string{"env"}})
	env := c.agentSaw()
	require.Contains(t, env, "exit=0")
	assert.NotContains(t, env, deskToken)
	assert.NotContains(t, env, notifyToken)
	assert.NotContains(t, env, "ASKBRIDGE_DESK_TOKEN")
	assert.NotContains(t, env, "ASKBRIDGE_NOTIFY_TOKEN")
	assert.NotContains(t, env, "ASKBRIDGE_OTHER_SECRET")
	assert.Contains(t, env, "ASKBRIDGE_SOCKET=")
	assert.Contains(t, env, "ASKBRIDGE_SESSION=kept-session")
}
