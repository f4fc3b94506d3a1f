package adapter

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ownRequest reads askbridge's own request off the client's side and
// returns its id as a JSON string.
func ownRequest(t *testing.T, h *relayHarness) string {
	t.Helper()
	var req struct {
		ID     json.RawMessage
		Method string
	}
	require.NoError(t, json.Unmarshal([]byte(h.client.recv()), &req))
	require.Equal(t, "session/request_permission", req.Method)
	return string(req.ID)
}

// nextToAgent checks that the agent's next line is the marker the client
// sent after whatever must not reach the agent.
func nextToAgent(t *testing.T, h *relayHarness) {
	t.Helper()
	h.client.send(`{"jsonrpc":"2.0","method":"_marker"}`)
	assert.Equal(t, `{"jsonrpc":"2.0","method":"_marker"}`, h.agent.recv(), "a stray response reached the agent")
}

func debugLog(r *Relay) *syncBuffer {
	var log syncBuffer
	r.logger = slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug}))
	return &log
}

func TestSecondAnswerToAskbridgesRequestIsDropped(t *testing.T) {
	var log *syncBuffer
	h := newHarness(t, func(r *Relay) { log = debugLog(r) })
	done := make(chan error, 1)
	go func() {
		_, err := h.relay.Client.Call(t.Context(), "session/request_permission", nil)
		done <- err
	}()
	id := ownRequest(t, h)
	h.client.send(`{"jsonrpc":"2.0","id":` + id + `,"result":{"outcome":{"outcome":"cancelled"}}}`)
	require.NoError(t, <-done)
	h.client.send(`{"jsonrpc":"2.0","id":` + id + `,"result":{"outcome":{"outcome":"selected","optionId":"again"}}}`)
	nextToAgent(t, h)
	assert.Contains(t, log.String(), "stray response")
	assert.Contains(t, log.String(), "answered already")
}

func TestLateAnswerAfterAskbridgeWithdrewIsDropped(t *testing.T) {
	var log *syncBuffer
	h := newHarness(t, func(r *Relay) { log = debugLog(r) })
	ctx, cancel := contextWithCancel(t)
	done := make(chan error, 1)
	go func() {
		_, err := h.relay.Client.Call(ctx, "session/request_permission", nil)
		done <- err
	}()
	id := ownRequest(t, h)
	cancel()
	assert.ErrorIs(t, <-done, ctxCanceled)
	assert.JSONEq(t, `{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":`+id+`}}`, h.client.recv())
	// The user answered before the cancel arrived.
	h.client.send(`{"jsonrpc":"2.0","id":` + id + `,"result":{"outcome":{"outcome":"selected","optionId":"A"}}}`)
	// An error, or a response with neither result nor error, is no different.
	h.client.send(`{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32800,"message":"cancelled"}}`)
	h.client.send(`{"jsonrpc":"2.0","id":` + id + `}`)
	nextToAgent(t, h)
	assert.Contains(t, log.String(), "withdrawn")
}

// An id askbridge never used on this side is dropped too: the agent cannot
// have sent it, since the prefix is askbridge's own.
func TestAnswerToAnUnknownAskbridgeIDIsDropped(t *testing.T) {
	h := newHarness(t, nil)
	id := fmt.Sprintf(`"%s%d"`, h.relay.Client.prefix, 99)
	h.client.send(`{"jsonrpc":"2.0","id":` + id + `,"result":{}}`)
	nextToAgent(t, h)
}

// The agent guesses askbridge's ids as they were ("askbridge-1"): its
// request goes to the client, the client's answer comes back to the agent,
// and askbridge's own call is not disturbed.
func TestAgentCannotForgeAskbridgesIDs(t *testing.T) {
	h := newHarness(t, nil)
	res := make(chan json.RawMessage, 1)
	go func() {
		r, err := h.relay.Client.Call(t.Context(), "session/request_permission", nil)
		assert.NoError(t, err)
		res <- r
	}()
	ownID := ownRequest(t, h)
	for _, guess := range []string{`"askbridge-1"`, `"askbridge-2"`, `"askbridge-0"`} {
		h.agent.send(`{"jsonrpc":"2.0","id":` + guess + `,"method":"session/request_permission","params":{}}`)
		assert.Contains(t, h.client.recv(), guess)
		h.client.send(`{"jsonrpc":"2.0","id":` + guess + `,"result":{"outcome":{"outcome":"selected","optionId":"agent's"}}}`)
		assert.JSONEq(t, `{"jsonrpc":"2.0","id":`+guess+`,"result":{"outcome":{"outcome":"selected","optionId":"agent's"}}}`, h.agent.recv())
	}
	h.client.send(`{"jsonrpc":"2.0","id":` + ownID + `,"result":{"outcome":{"outcome":"selected","optionId":"askbridge's"}}}`)
	assert.JSONEq(t, `{"outcome":{"outcome":"selected","optionId":"askbridge's"}}`, string(<-res))
}

// askbridge's ids carry 64 random bits, different per side and per process,
// so neither side can guess the ids askbridge uses on the other.
func TestAskbridgeIDsAreRandomPerSide(t *testing.T) {
	a, b := newHarness(t, nil), newHarness(t, nil)
	prefixes := map[string]bool{}
	for _, p := range []*Peer{a.relay.Client, a.relay.Agent, b.relay.Client, b.relay.Agent} {
		assert.Regexp(t, `^askbridge-[0-9a-f]{16}-$`, p.prefix)
		prefixes[p.prefix] = true
	}
	assert.Len(t, prefixes, 4)
	go a.relay.Client.Call(t.Context(), "session/request_permission", nil)
	id := ownRequest(t, a)
	assert.True(t, strings.HasPrefix(id, `"`+a.relay.Client.prefix), id)
}
