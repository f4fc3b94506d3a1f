package adapter

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// One response per request: a peer that answers a forwarded request twice
// gets the first answer through, and the second goes nowhere.
func TestASecondResponseToOneRequestIsDropped(t *testing.T) {
	h := newHarness(t, nil)
	h.agent.send(`{"jsonrpc":"2.0","id":5,"method":"fs/read_text_file","params":{"path":"/x"}}`)
	h.client.recv()
	h.client.send(`{"jsonrpc":"2.0","id":5,"result":{"content":"one"}}`)
	h.client.send(`{"jsonrpc":"2.0","id":5,"result":{"content":"two"}}`)
	assert.Equal(t, `{"jsonrpc":"2.0","id":5,"result":{"content":"one"}}`, h.agent.recv())
	nextToAgent(t, h)

	h.client.send(`{"jsonrpc":"2.0","id":"s","method":"session/prompt"}`)
	h.agent.recv()
	h.agent.send(`{"jsonrpc":"2.0","id":"s","result":{"stopReason":"end_turn"}}`)
	h.agent.send(`{"jsonrpc":"2.0","id":"s","error":{"code":-32603,"message":"again"}}`)
	assert.Equal(t, `{"jsonrpc":"2.0","id":"s","result":{"stopReason":"end_turn"}}`, h.client.recv())
	h.agent.send(`{"jsonrpc":"2.0","method":"_marker"}`)
	assert.Equal(t, `{"jsonrpc":"2.0","method":"_marker"}`, h.client.recv(), "a second response reached the client")

	// An error to id null answers no request: it is passed on.
	h.client.send(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`)
	assert.Equal(t, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`, h.agent.recv())
}

// A peer that sends two requests with one id while the first is open gets
// a response to each, in order.
func TestAReusedIDGetsOneResponsePerRequest(t *testing.T) {
	h := newHarness(t, nil)
	for range 2 {
		h.agent.send(`{"jsonrpc":"2.0","id":7,"method":"fs/read_text_file","params":{"path":"/x"}}`)
		h.client.recv()
	}
	h.client.send(`{"jsonrpc":"2.0","id":7,"result":{"content":"first"}}`)
	h.client.send(`{"jsonrpc":"2.0","id":7,"result":{"content":"second"}}`)
	h.client.send(`{"jsonrpc":"2.0","id":7,"result":{"content":"third"}}`)
	assert.Contains(t, h.agent.recv(), "first")
	assert.Contains(t, h.agent.recv(), "second")
	nextToAgent(t, h)
}

// A client that leaves while the agent waits on it: every request forwarded
// to it, and every later one, gets an error.
func TestClientLeavingFailsEveryRequestForwardedToIt(t *testing.T) {
	h := newHarness(t, nil)
	h.agent.send(`{"jsonrpc":"2.0","id":1,"method":"session/request_permission","params":{}}`)
	h.agent.send(`{"jsonrpc":"2.0","id":"two","method":"fs/read_text_file","params":{}}`)
	h.client.recv()
	h.client.recv()
	require.NoError(t, h.client.w.Close())
	<-h.relay.ClientDone()
	ids := map[string]bool{}
	for range 2 {
		m := decode(t, h.agent.recv())
		require.NotNil(t, m.Error, "an error, not a result")
		assert.Equal(t, CodeInternalError, m.Error.Code)
		assert.Contains(t, m.Error.Message, "client disconnected")
		ids[string(m.ID)] = true
	}
	assert.Equal(t, map[string]bool{`1`: true, `"two"`: true}, ids)
	h.agent.send(`{"jsonrpc":"2.0","id":3,"method":"fs/read_text_file","params":{}}`)
	assert.Contains(t, h.agent.recv(), `"id":3,"error"`)
}

// Cursor's fallback: a client that answers -32601 twice makes askbridge
// ask once, and the agent gets one response, askbridge's answer.
func TestCursorClientAnsweringTwiceGetsTheAgentOneResponse(t *testing.T) {
	h := newBridgeHarness(t, Options{})
	h.openSession(t, "s1")
	h.agent.send(cursorRequest(9, CursorAskQuestion, cursorDB))
	fwd, _ := h.nextRequest(t, CursorAskQuestion)
	notFound := `{"jsonrpc":"2.0","id":` + string(fwd.ID) + `,"error":{"code":-32601,"message":"Method not found"}}`
	h.client.send(notFound)
	h.client.send(notFound)
	req, _ := h.nextRequest(t, "session/request_permission")
	h.answer(t, req, pick("SQLite"))
	reply := decode(t, h.agent.recv())
	assert.Equal(t, "9", string(reply.ID))
	require.Nil(t, reply.Error, "the client's second -32601 reached the agent")
	assert.JSONEq(t, `{"outcome":{"outcome":"answered","answers":[{"questionId":"db","selectedOptionIds":["lite"]}]}}`, string(reply.Result))
	nextToAgent(t, h.relayHarness)
}

// Cursor's fallback: a client that leaves while Cursor's request is
// forwarded to it leaves the agent with an error, not waiting.
func TestCursorRequestForwardedToAClientThatLeavesGetsAnError(t *testing.T) {
	h := newBridgeHarness(t, Options{})
	h.openSession(t, "s1")
	h.agent.send(cursorRequest(9, CursorAskQuestion, cursorDB))
	h.nextRequest(t, CursorAskQuestion)
	require.NoError(t, h.client.w.Close())
	reply := h.agentReply(t, "9")
	require.NotNil(t, reply.Error)
	assert.Equal(t, CodeInternalError, reply.Error.Code)
}
