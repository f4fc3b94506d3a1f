package relay_test

import (
	"testing"

	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/adapter/relay/relaytest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// One response per request: a peer that answers a forwarded request twice
// gets the first answer through, and the second goes nowhere.
func TestASecondResponseToOneRequestIsDropped(t *testing.T) {
	h := relaytest.New(t, relay.Config{}, nil)
	h.Agent.Send(`{"jsonrpc":"2.0","id":5,"method":"fs/read_text_file","params":{"path":"/x"}}`)
	h.Client.Recv()
	h.Client.Send(`{"jsonrpc":"2.0","id":5,"result":{"content":"one"}}`)
	h.Client.Send(`{"jsonrpc":"2.0","id":5,"result":{"content":"two"}}`)
	assert.Equal(t, `{"jsonrpc":"2.0","id":5,"result":{"content":"one"}}`, h.Agent.Recv())
	h.NothingElseToAgent(t)

	h.Client.Send(`{"jsonrpc":"2.0","id":"s","method":"session/prompt"}`)
	h.Agent.Recv()
	h.Agent.Send(`{"jsonrpc":"2.0","id":"s","result":{"stopReason":"end_turn"}}`)
	h.Agent.Send(`{"jsonrpc":"2.0","id":"s","error":{"code":-32603,"message":"again"}}`)
	assert.Equal(t, `{"jsonrpc":"2.0","id":"s","result":{"stopReason":"end_turn"}}`, h.Client.Recv())
	h.Agent.Send(`{"jsonrpc":"2.0","method":"_marker"}`)
	assert.Equal(t, `{"jsonrpc":"2.0","method":"_marker"}`, h.Client.Recv(), "a second response reached the client")

	// An error to id null answers no request: it is passed on.
	h.Client.Send(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`)
	assert.Equal(t, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`, h.Agent.Recv())
}

// A peer that sends two requests with one id while the first is open gets
// a response to each, in order.
func TestAReusedIDGetsOneResponsePerRequest(t *testing.T) {
	h := relaytest.New(t, relay.Config{}, nil)
	for range 2 {
		h.Agent.Send(`{"jsonrpc":"2.0","id":7,"method":"fs/read_text_file","params":{"path":"/x"}}`)
		h.Client.Recv()
	}
	h.Client.Send(`{"jsonrpc":"2.0","id":7,"result":{"content":"first"}}`)
	h.Client.Send(`{"jsonrpc":"2.0","id":7,"result":{"content":"second"}}`)
	h.Client.Send(`{"jsonrpc":"2.0","id":7,"result":{"content":"third"}}`)
	assert.Contains(t, h.Agent.Recv(), "first")
	assert.Contains(t, h.Agent.Recv(), "second")
	h.NothingElseToAgent(t)
}

// A client that leaves while the agent waits on it: every request forwarded
// to it, and every later one, gets an error.
func TestClientLeavingFailsEveryRequestForwardedToIt(t *testing.T) {
	h := relaytest.New(t, relay.Config{}, nil)
	h.Agent.Send(`{"jsonrpc":"2.0","id":1,"method":"session/request_permission","params":{}}`)
	h.Agent.Send(`{"jsonrpc":"2.0","id":"two","method":"fs/read_text_file","params":{}}`)
	h.Client.Recv()
	h.Client.Recv()
	require.NoError(t, h.Client.Close())
	<-h.Relay.ClientDone()
	ids := map[string]bool{}
	for range 2 {
		m := relaytest.Decode(t, h.Agent.Recv())
		require.NotNil(t, m.Error, "an error, not a result")
		assert.Equal(t, relay.CodeInternalError, m.Error.Code)
		assert.Contains(t, m.Error.Message, "client disconnected")
		ids[string(m.ID)] = true
	}
	assert.Equal(t, map[string]bool{`1`: true, `"two"`: true}, ids)
	h.Agent.Send(`{"jsonrpc":"2.0","id":3,"method":"fs/read_text_file","params":{}}`)
	assert.Contains(t, h.Agent.Recv(), `"id":3,"error"`)
}
