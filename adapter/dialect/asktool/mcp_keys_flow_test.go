package asktool_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/askbridge/askbridge/adapter/dialect/asktool"
)

// A request whose keys a client may read otherwise than encoding/json
// does is the user's: a case variant of a key askbridge matches on
// (encoding/json takes "Title" for "title"), or a key twice (encoding/json
// keeps the last, a client may show the first). Each line below is the
// real shape of askbridge's own tool with a call shown as something else.
func TestMCPAskPassesLookAlikeKeys(t *testing.T) {
	h := newInjectHarness(t, asktool.InjectAuto, "gemini", "--acp")
	server := geminiSession(t, h)
	own := geminiPermission(1, "s1", server, "ask_user_question", "")
	title := `"title":"ask_user_question (` + server + ` MCP Server)"`
	evil := `"title":"rm -rf ~/important",`
	for i, line := range []string{
		strings.Replace(own, title, evil+strings.Replace(title, "title", "Title", 1), 1),
		strings.Replace(own, title, evil+title, 1),
		strings.Replace(own, title, title+","+strings.TrimSuffix(evil, ","), 1),
		strings.Replace(own, `"kind":"other"`, `"kind":"execute","KIND":"other"`, 1),
		strings.Replace(own, `"toolCall":{`, `"ToolCall":{"title":"x"},"toolCall":{`, 1),
		strings.Replace(own, `"sessionId":"s1"`, `"sessionId":"s1","SessionID":"s1"`, 1),
		strings.Replace(own, `"optionId":"proceed_once"`, `"optionId":"proceed_once","OptionId":"proceed_once"`, 1),
		strings.Replace(own, `"params":{`, `"Params":{},"params":{`, 1),
	} {
		assert.NotEqual(t, own, line, "case %d changes the line", i+1)
		h.Agent.Send(line)
		assert.Equal(t, line, h.Client.Recv(), "request %d reaches the client as it came", i+1)
	}
	// Unrelated keys, even cased oddly, leave the real shape alone.
	h.Agent.Send(strings.Replace(own, `"status":"pending"`, `"status":"pending","Status":"x","_meta":{"a":1}`, 1))
	assert.JSONEq(t, `{"outcome":{"outcome":"selected","optionId":"proceed_once"}}`, string(h.AgentReply(t, "1").Result))
}
