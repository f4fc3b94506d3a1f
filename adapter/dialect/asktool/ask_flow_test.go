package asktool_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/adapter/adaptertest"
	"github.com/askbridge/askbridge/adapter/relay"
)

// An agent that asks through askbridge's own extension (askwire.Method:
// the CLI's socket, the MCP ask tool, a toy agent) gets the SDK-style
// result, answers keyed by the question's text.
func TestAskExtensionReturnsTheSDKResult(t *testing.T) {
	h := adaptertest.New(t, adapter.Options{Advertise: true})
	h.OpenSession(t, "s1")
	h.Agent.Send(`{"jsonrpc":"2.0","id":5,"method":"_askbridge/ask","params":{"sessionId":"s1","questions":[{"question":"Which database?","header":"Database","options":[{"label":"Postgres","description":"relational"},{"label":"SQLite","description":"embedded"}],"multiSelect":false}]}}`)
	req, _ := h.NextRequest(t, "session/request_permission")
	h.Answer(t, req, adaptertest.Pick("Postgres"))
	assert.JSONEq(t, `{"behavior":"allow","updatedInput":{"questions":[{"question":"Which database?","header":"Database","options":[{"label":"Postgres","description":"relational"},{"label":"SQLite","description":"embedded"}],"multiSelect":false}],"answers":{"Which database?":"Postgres"}}}`, string(h.AgentReply(t, "5").Result))
}

// A set that breaks the contract is refused at once, every violation
// named, so the model can mend them all in one go.
func TestAskExtensionRejectsBadQuestionsListingEveryViolation(t *testing.T) {
	h := adaptertest.New(t, adapter.Options{Advertise: true})
	h.OpenSession(t, "s1")
	h.Agent.Send(`{"jsonrpc":"2.0","id":6,"method":"_askbridge/ask","params":{"questions":[{"question":"Q","header":"A header far too long","options":[{"label":"only"}]},{"question":"Q","header":"H","options":[{"label":"x"},{"label":"x"}]}]}}`)
	reply := h.AgentReply(t, "6")
	require.NotNil(t, reply.Error)
	assert.Equal(t, relay.CodeInvalidParams, reply.Error.Code)
	for _, want := range []string{"questions[0].options", "questions[0].header", "questions[1]"} {
		assert.Contains(t, reply.Error.Message, want)
	}
}
