package relay_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/adapter/relay/relaytest"
	"github.com/stretchr/testify/require"
)

// The invariants FuzzScan checks of every id, in the relay's own terms.

// checkIDScans: a request and a response carrying id are read as such,
// with the id as it was written.
func checkIDScans(t *testing.T, id []byte) {
	want := string(bytes.TrimSpace(id))
	h, err := relay.Scan([]byte(`{"jsonrpc":"2.0","id":` + string(id) + `,"method":"m","params":{}}`))
	require.NoError(t, err)
	require.True(t, h.IsRequest())
	require.Equal(t, want, string(h.ID()))
	h, err = relay.Scan([]byte(`{"id":` + string(id) + `,"jsonrpc":"2.0","result":{"id":2}}`))
	require.NoError(t, err)
	require.True(t, h.IsResponse())
	require.Equal(t, want, string(h.ID()))
}

// checkIDKey: another spelling of the same value has the same key, a
// different value another key.
func checkIDKey(t *testing.T, id []byte) {
	id = bytes.TrimSpace(id)
	key := relay.IDKey(id)
	require.Equal(t, key, relay.IDKey(append([]byte(" "), id...)), "whitespace is not part of an id")
	switch {
	case id[0] == '"':
		var s string
		if json.Unmarshal(id, &s) != nil || !utf8.ValidString(s) || strings.ContainsRune(s, utf8.RuneError) {
			return // not a string that survives decoding: no other spelling to compare
		}
		again, _ := json.Marshal(s)
		require.Equal(t, key, relay.IDKey(again), "%s re-encoded as %s", id, again)
		require.NotEqual(t, key, relay.IDKey(append(again[:len(again)-1:len(again)-1], 'x', '"')), "a longer string")
	case id[0] == '-' || '0' <= id[0] && id[0] <= '9':
		if key == "0" {
			return // every spelling of zero is zero
		}
		if !bytes.ContainsAny(id, "eE") {
			require.Equal(t, key, relay.IDKey(append(bytes.Clone(id), "e0"...)), "%se0", id)
			if !bytes.Contains(id, []byte(".")) {
				require.Equal(t, key, relay.IDKey(append(bytes.Clone(id), ".000"...)), "%s.000", id)
				require.NotEqual(t, key, relay.IDKey(append(bytes.Clone(id), '1')), "%s1", id)
			}
		}
		other := relay.IDKey(append([]byte("-"), id...))
		if id[0] == '-' {
			other = relay.IDKey(id[1:])
		}
		require.NotEqual(t, key, other, "%s and its negation", id)
	}
}

// checkIDRoutes: through a relay, a request reaches the other side and its
// response the requester, both unchanged and under the requester's id; an
// agent request with that id is answered to the agent even while askbridge
// waits on an answer of its own from the client; and when the agent dies, a
// request it left pending gets an error under its id.
func checkIDRoutes(t *testing.T, id []byte) {
	h := relaytest.New(t, relay.Config{}, nil)
	req := `{"jsonrpc":"2.0","id":` + string(id) + `,"method":"session/prompt","params":{}}`
	resp := `{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"stopReason":"end_turn"}}`
	h.Client.Send(req)
	require.Equal(t, req, h.Agent.Recv())
	h.Agent.Send(resp)
	require.Equal(t, resp, h.Client.Recv())

	own := make(chan json.RawMessage, 1)
	go func() {
		r, err := h.Relay.Client.Call(t.Context(), "session/request_permission", nil)
		if err == nil {
			own <- r
		}
		close(own)
	}()
	ownID := ownRequest(t, h)
	agentReq := `{"jsonrpc":"2.0","id":` + string(id) + `,"method":"session/request_permission","params":{}}`
	clientResp := `{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"outcome":{"outcome":"cancelled"}}}`
	h.Agent.Send(agentReq)
	require.Equal(t, agentReq, h.Client.Recv())
	h.Client.Send(clientResp)
	require.Equal(t, clientResp, h.Agent.Recv())
	h.Client.Send(`{"jsonrpc":"2.0","id":` + ownID + `,"result":{"mine":true}}`)
	require.Equal(t, `{"mine":true}`, string(<-own))

	// Two requests pending, id and one of a value next to it: each gets its
	// error.
	ids := []string{string(bytes.TrimSpace(id))}
	if n := neighbour(ids[0]); n != "" {
		ids = append(ids, n)
	}
	for _, id := range ids {
		req := `{"jsonrpc":"2.0","id":` + id + `,"method":"session/prompt","params":{}}`
		h.Client.Send(req)
		require.Equal(t, req, h.Agent.Recv())
	}
	h.Relay.FailPending(relay.Internal("agent gone", nil))
	var failed []string
	for range ids {
		// scan, not json.Unmarshal: an id may hold control bytes, which
		// the relay passes as they came.
		line := h.Client.Recv()
		resp, err := relay.Scan([]byte(line))
		require.NoError(t, err)
		require.True(t, resp.IsResponse(), line)
		require.Contains(t, line, `,"error":{"code":-32603,"message":"agent gone"}}`)
		failed = append(failed, string(resp.ID()))
	}
	require.ElementsMatch(t, ids, failed, "the ids of the errors")
}

// neighbour returns an id of another value close to id's (a number's last
// digit changed, a string one character longer), or "" for other ids.
func neighbour(id string) string {
	switch {
	case strings.HasPrefix(id, `"`):
		return id[:len(id)-1] + `x"`
	case id == "" || !strings.ContainsAny(id[:1], "-0123456789"):
		return ""
	}
	if relay.IDKey([]byte(id)) == "0" {
		return ""
	}
	end := strings.IndexAny(id, "eE")
	if end < 0 {
		end = len(id)
	}
	last := id[end-1]
	d := last + 1
	if last == '9' {
		d = last - 1
	}
	return id[:end-1] + string(d) + id[end:]
}
