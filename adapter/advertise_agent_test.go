package adapter

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// An agent-specific advertisement (Qwen's "qwen.askUserQuestion", Kiro's
// kiro.userInput) reaches its own agent and an agent askbridge cannot name
// (a wrapper script), and never another agent it knows; the generic ones
// (elicitation form and url) reach every agent.
func TestAgentSpecificAdvertisementGoesOnlyToItsAgent(t *testing.T) {
	const (
		qwen    = `"qwen.askUserQuestion":true`
		kiro    = `"kiro":{"userInput":true}`
		generic = `"elicitation":{"form":{},"url":{}}`
	)
	cases := []struct {
		name       string
		argv       []string
		qwen, kiro bool
	}{
		{"qwen as installed", []string{"qwen", "--acp"}, true, false},
		{"qwen as the live tests start it", []string{"node", "/w/live/node_modules/@qwen-code/qwen-code/cli.js", "--acp"}, true, false},
		{"qwen through npx", []string{"npx", "-y", "@qwen-code/qwen-code@latest", "--acp"}, true, false},
		{"kiro", []string{"/usr/local/bin/kiro-cli", "acp", "--model", "claude-sonnet-4"}, false, true},
		{"claude", []string{"node", "/home/qwen/node_modules/@agentclientprotocol/claude-agent-acp/dist/index.js"}, false, false},
		{"codex", []string{"codex-acp"}, false, false},
		{"gemini", []string{"/w/live/node_modules/.bin/gemini", "--acp"}, false, false},
		{"cursor", []string{"agent", "acp"}, false, false},
		{"a wrapper script", []string{"/home/me/bin/my-agent.sh"}, true, true},
		{"no command", nil, true, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newBridgeHarness(t, Options{Advertise: true, Agent: c.argv})
			h.Client.Send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`)
			got := string(decode(t, h.Agent.Recv()).Params)
			assert.Equal(t, c.qwen, strings.Contains(got, qwen), "Qwen's advertisement for %q: %s", c.argv, got)
			assert.Equal(t, c.kiro, strings.Contains(got, kiro), "Kiro's advertisement for %q: %s", c.argv, got)
			assert.Contains(t, got, generic, "the generic capabilities go to every agent")
		})
	}
}
