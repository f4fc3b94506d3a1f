package relay_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/adapter/relay/relaytest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestIDKeySameValueSameKey(t *testing.T) {
	for _, ids := range [][]string{
		{`1`, `1.0`, `1e0`, `10e-1`, `0.1e1`, `1.000E+0`},
		{`100`, `1e2`, `1E2`, `100.00`, `0.001e5`},
		{`-7`, `-7.0`, `-70e-1`},
		{`0`, `-0`, `0.0`, `0e10`, `-0.0e-3`},
		{`1.5`, `15e-1`, `0.15e1`, `1.50`},
		{`12345678901234567890`, `1234567890123456789e1`, `12345678901234567890.000`},
		{`1e70`, `1` + zeros(70), `10e69`},
		{`"A"`, `"\u0041"`, `"\u0041"`},
		{`"a/b"`, `"a\/b"`},
		{`"q\"x"`, `"q\u0022x"`},
		{`"b\\s"`, `"b\u005cs"`, `"b\u005Cs"`},
		{`"😀"`, `"\ud83d\ude00"`, `"\uD83D\uDE00"`},
		{`"tab	"`, `"tab\t"`, `"tab\u0009"`},
	} {
		for _, id := range ids[1:] {
			assert.Equal(t, relay.IDKey([]byte(ids[0])), relay.IDKey([]byte(id)), "%s and %s are one value", ids[0], id)
		}
	}
}

func TestIDKeyDifferentValuesDifferentKeys(t *testing.T) {
	ids := []string{
		`12345678901234567890`, `12345678901234567891`, `12345678901234567892`,
		`9007199254740993`, `9007199254740992`, `-9007199254740993`,
		`1`, `-1`, `1.5`, `1.05`, `0.15`, `15`, `1e70`, `1e71`, `1` + zeros(64), `1` + zeros(65),
		`"1"`, `"1.0"`, `"a"`, `"A"`, `"\ud800"`, `"\ud801"`, `"\\ud800"`, `"\ufffd"`, `"\udc00\ud800"`,
		`"q\"x"`, `"q\\x"`, `"askbridge-1"`, `"askbridge-01"`,
		`null`, `true`, `false`, `{}`, `[]`, `[1]`, `{"a":1}`, `""`,
	}
	seen := map[string]string{}
	for _, id := range ids {
		k := relay.IDKey([]byte(id))
		if prev, ok := seen[k]; ok {
			t.Errorf("%s and %s share the key %q", prev, id, k)
		}
		seen[k] = id
	}
}

func TestIDKeyKeepsCommonIDsAsTheyAre(t *testing.T) {
	for _, id := range []string{`0`, `7`, `-42`, `"abc"`, `"askbridge-0123456789abcdef-1"`} {
		assert.Equal(t, id, relay.IDKey([]byte(id)))
	}
}

// Two client requests whose ids round to one float64 each get the agent's
// death as their answer, under their own id.
func TestFailPendingAnswersRequestsWithHugeIntegerIDs(t *testing.T) {
	h := relaytest.New(t, relay.Config{}, nil)
	h.Client.Send(`{"jsonrpc":"2.0","id":12345678901234567890,"method":"session/prompt"}`)
	h.Client.Send(`{"jsonrpc":"2.0","id":12345678901234567891,"method":"session/prompt"}`)
	h.Agent.Recv()
	h.Agent.Recv()
	h.Relay.FailPending(relay.Internal("askbridge: the agent exited", nil))
	ids := map[string]bool{}
	for range 2 {
		var resp struct {
			ID    json.RawMessage
			Error *relay.Error
		}
		require.NoError(t, json.Unmarshal([]byte(h.Client.RecvWithin(2*time.Second)), &resp))
		require.NotNil(t, resp.Error)
		ids[string(resp.ID)] = true
	}
	assert.Equal(t, map[string]bool{`12345678901234567890`: true, `12345678901234567891`: true}, ids)
}

func zeros(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = '0'
	}
	return string(b)
}

// askbridge's own replies carry the id as the request spelt it.
func TestRepliesKeepTheIDAsSpelt(t *testing.T) {
	h := relaytest.New(t, relay.Config{}, nil)
	for _, id := range []string{`"a&b<c>"`, `1.0`, `"\u0041"`, `12345678901234567891`} {
		h.Relay.Client.ReplyError(json.RawMessage(" "+id), relay.Internal("x", nil))
		assert.Equal(t, `{"jsonrpc":"2.0","id":`+id+`,"error":{"code":-32603,"message":"x"}}`, h.Client.Recv())
	}
	h.Relay.Agent.Reply(json.RawMessage(`"<&>"`), map[string]string{"a": "<"})
	assert.Equal(t, `{"jsonrpc":"2.0","id":"<&>","result":{"a":"\u003c"}}`, h.Agent.Recv())
}
