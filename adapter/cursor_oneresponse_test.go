package adapter

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter/dialect/cursor"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/adapter/relay/relaytest"
)

// Cursor's fallback: a client that answers -32601 twice makes askbridge
// ask once, and the agent gets one response, askbridge's answer.
func TestCursorClientAnsweringTwiceGetsTheAgentOneResponse(t *testing.T) {
	h := newBridgeHarness(t, Options{})
	h.openSession(t, "s1")
	h.Agent.Send(cursorRequest(9, cursor.AskQuestion, cursorDB))
	fwd, _ := h.nextRequest(t, cursor.AskQuestion)
	notFound := `{"jsonrpc":"2.0","id":` + string(fwd.ID) + `,"error":{"code":-32601,"message":"Method not found"}}`
	h.Client.Send(notFound)
	h.Client.Send(notFound)
	req, _ := h.nextRequest(t, "session/request_permission")
	h.answer(t, req, pick("SQLite"))
	reply := relaytest.Decode(t, h.Agent.Recv())
	assert.Equal(t, "9", string(reply.ID))
	require.Nil(t, reply.Error, "the client's second -32601 reached the agent")
	assert.JSONEq(t, `{"outcome":{"outcome":"answered","answers":[{"questionId":"db","selectedOptionIds":["lite"]}]}}`, string(reply.Result))
	h.Harness.NothingElseToAgent(t)
}

// Cursor's fallback: a client that leaves while Cursor's request is
// forwarded to it leaves the agent with an error, not waiting.
func TestCursorRequestForwardedToAClientThatLeavesGetsAnError(t *testing.T) {
	h := newBridgeHarness(t, Options{})
	h.openSession(t, "s1")
	h.Agent.Send(cursorRequest(9, cursor.AskQuestion, cursorDB))
	h.nextRequest(t, cursor.AskQuestion)
	require.NoError(t, h.Client.Close())
	reply := h.agentReply(t, "9")
	require.NotNil(t, reply.Error)
	assert.Equal(t, relay.CodeInternalError, reply.Error.Code)
}
