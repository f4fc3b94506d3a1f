package relay_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/adapter/relay/relaytest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ownRequest reads askbridge's own request off the client's side and
// returns its id as a JSON string.
func ownRequest(t *testing.T, h *relaytest.Harness) string {
	t.Helper()
	var req struct {
		ID     json.RawMessage
		Method string
	}
	require.NoError(t, json.Unmarshal([]byte(h.Client.Recv()), &req))
	require.Equal(t, "session/request_permission", req.Method)
	return string(req.ID)
}

func debugLog(r *relay.Relay) *relaytest.Buffer {
	var log relaytest.Buffer
	relay.SetLogger(r, slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug})))
	return &log
}

func TestSecondAnswerToAskbridgesRequestIsDropped(t *testing.T) {
	var log *relaytest.Buffer
	h := relaytest.New(t, relay.Config{}, func(r *relay.Relay) { log = debugLog(r) })
	done := make(chan error, 1)
	go func() {
		_, err := h.Relay.Client.Call(t.Context(), "session/request_permission", nil)
		done <- err
	}()
	id := ownRequest(t, h)
	h.Client.Send(`{"jsonrpc":"2.0","id":` + id + `,"result":{"outcome":{"outcome":"cancelled"}}}`)
	require.NoError(t, <-done)
	h.Client.Send(`{"jsonrpc":"2.0","id":` + id + `,"result":{"outcome":{"outcome":"selected","optionId":"again"}}}`)
	h.NothingElseToAgent(t)
	assert.Contains(t, log.String(), "stray response")
	assert.Contains(t, log.String(), "answered already")
}

func TestLateAnswerAfterAskbridgeWithdrewIsDropped(t *testing.T) {
	var log *relaytest.Buffer
	h := relaytest.New(t, relay.Config{}, func(r *relay.Relay) { log = debugLog(r) })
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := h.Relay.Client.Call(ctx, "session/request_permission", nil)
		done <- err
	}()
	id := ownRequest(t, h)
	cancel()
	assert.ErrorIs(t, <-done, context.Canceled)
	assert.JSONEq(t, `{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":`+id+`}}`, h.Client.Recv())
	// The user answered before the cancel arrived.
	h.Client.Send(`{"jsonrpc":"2.0","id":` + id + `,"result":{"outcome":{"outcome":"selected","optionId":"A"}}}`)
	// An error, or a response with neither result nor error, is no different.
	h.Client.Send(`{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32800,"message":"cancelled"}}`)
	h.Client.Send(`{"jsonrpc":"2.0","id":` + id + `}`)
	h.NothingElseToAgent(t)
	assert.Contains(t, log.String(), "withdrawn")
}

// An id askbridge never used on this side is dropped too: the agent cannot
// have sent it, since the prefix is askbridge's own.
func TestAnswerToAnUnknownAskbridgeIDIsDropped(t *testing.T) {
	h := relaytest.New(t, relay.Config{}, nil)
	id := fmt.Sprintf(`"%s%d"`, relay.IDPrefix(h.Relay.Client), 99)
	h.Client.Send(`{"jsonrpc":"2.0","id":` + id + `,"result":{}}`)
	h.NothingElseToAgent(t)
}

// The agent guesses askbridge's ids as they were ("askbridge-1"): its
// request goes to the client, the client's answer comes back to the agent,
// and askbridge's own call is not disturbed.
func TestAgentCannotForgeAskbridgesIDs(t *testing.T) {
	h := relaytest.New(t, relay.Config{}, nil)
	res := make(chan json.RawMessage, 1)
	go func() {
		r, err := h.Relay.Client.Call(t.Context(), "session/request_permission", nil)
		assert.NoError(t, err)
		res <- r
	}()
	ownID := ownRequest(t, h)
	for _, guess := range []string{`"askbridge-1"`, `"askbridge-2"`, `"askbridge-0"`} {
		h.Agent.Send(`{"jsonrpc":"2.0","id":` + guess + `,"method":"session/request_permission","params":{}}`)
		assert.Contains(t, h.Client.Recv(), guess)
		h.Client.Send(`{"jsonrpc":"2.0","id":` + guess + `,"result":{"outcome":{"outcome":"selected","optionId":"agent's"}}}`)
		assert.JSONEq(t, `{"jsonrpc":"2.0","id":`+guess+`,"result":{"outcome":{"outcome":"selected","optionId":"agent's"}}}`, h.Agent.Recv())
	}
	h.Client.Send(`{"jsonrpc":"2.0","id":` + ownID + `,"result":{"outcome":{"outcome":"selected","optionId":"askbridge's"}}}`)
	assert.JSONEq(t, `{"outcome":{"outcome":"selected","optionId":"askbridge's"}}`, string(<-res))
}

// askbridge's ids carry 64 random bits, different per side and per process,
// so neither side can guess the ids askbridge uses on the other.
func TestAskbridgeIDsAreRandomPerSide(t *testing.T) {
	a, b := relaytest.New(t, relay.Config{}, nil), relaytest.New(t, relay.Config{}, nil)
	prefixes := map[string]bool{}
	for _, p := range []*relay.Peer{a.Relay.Client, a.Relay.Agent, b.Relay.Client, b.Relay.Agent} {
		assert.Regexp(t, `^askbridge-[0-9a-f]{16}-$`, relay.IDPrefix(p))
		prefixes[relay.IDPrefix(p)] = true
	}
	assert.Len(t, prefixes, 4)
	go a.Relay.Client.Call(t.Context(), "session/request_permission", nil)
	id := ownRequest(t, a)
	assert.True(t, strings.HasPrefix(id, `"`+relay.IDPrefix(a.Relay.Client)), id)
}
