package relay_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/adapter/relay/relaytest"
)

// A batch's messages meet the interceptors one by one, in order, and what
// goes on leaves as one batch: a taken request is not in it (askbridge
// answered it alone), a replaced one is replaced in place, the rest are as
// they came. Before batches were inspected, the whole array went on as it
// was and the interceptors never saw the question inside.
func TestBatchMessagesAreInspectedOneByOneAndForwardedAsABatch(t *testing.T) {
	var seen []string
	h := relaytest.New(t, relay.Config{}, func(r *relay.Relay) {
		r.FromAgent("elicitation/create", func(m *relay.Message) relay.Verdict {
			seen = append(seen, m.Method+" "+string(m.ID))
			m.From.Reply(m.ID, map[string]string{"action": "cancel"})
			return relay.Verdict{Take: true}
		})
		r.FromAgent("session/update", func(m *relay.Message) relay.Verdict {
			seen = append(seen, m.Method)
			return relay.Verdict{Replace: json.RawMessage(`{"jsonrpc":"2.0","method":"session/update","params":{"replaced":true}}`)}
		})
	})
	h.Agent.Send(`[{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{}}, {"jsonrpc":"2.0","method":"session/update","params":{}} ,{"jsonrpc":"2.0","method":"_x/kept","params":{"a":1}}]`)
	assert.Equal(t, `{"jsonrpc":"2.0","id":1,"result":{"action":"cancel"}}`, h.Agent.Recv())
	assert.Equal(t, `[{"jsonrpc":"2.0","method":"session/update","params":{"replaced":true}},{"jsonrpc":"2.0","method":"_x/kept","params":{"a":1}}]`, h.Client.Recv())
	assert.Equal(t, []string{"elicitation/create 1", "session/update"}, seen)
}

// A batch nothing touched goes on as the very line it was, spacing and
// all; an empty array is the receiver's to refuse; a batch of which
// askbridge took every message sends nothing on (an empty array would be an
// invalid request).
func TestBatchUnchangedEmptyAndAllTaken(t *testing.T) {
	h := relaytest.New(t, relay.Config{}, func(r *relay.Relay) {
		r.FromClient("_mine", func(m *relay.Message) relay.Verdict { return relay.Verdict{Take: true} })
	})
	same := `[ {"jsonrpc":"2.0","method":"_a"} , {"jsonrpc":"2.0","id":"x","method":"_b","params":[1]} ]`
	h.Client.Send(same)
	assert.Equal(t, same, h.Agent.Recv())
	h.Client.Send(`[]`)
	assert.Equal(t, `[]`, h.Agent.Recv())
	h.Client.Send(`[{"jsonrpc":"2.0","method":"_mine"},{"jsonrpc":"2.0","method":"_mine"}]`)
	h.NothingElseToAgent(t)
}

// Responses in a batch are matched one by one: askbridge's own call gets
// its answer (and it is not forwarded), a forwarded request's response
// goes back through its OnResponse hook, in the batch.
func TestBatchOfResponsesRoutesEachResponse(t *testing.T) {
	h := relaytest.New(t, relay.Config{}, func(r *relay.Relay) {
		r.FromAgent("session/request_permission", func(m *relay.Message) relay.Verdict {
			return relay.Verdict{OnResponse: func(resp json.RawMessage) json.RawMessage {
				return json.RawMessage(`{"jsonrpc":"2.0","id":7,"result":{"rewritten":true}}`)
			}}
		})
	})
	h.Agent.Send(`{"jsonrpc":"2.0","id":7,"method":"session/request_permission","params":{}}`)
	h.Client.Recv()
	h.Agent.Send(`{"jsonrpc":"2.0","id":8,"method":"_other","params":{}}`)
	h.Client.Recv()
	got := make(chan json.RawMessage, 1)
	go func() {
		res, err := h.Relay.Client.Call(t.Context(), "_ask", nil)
		assert.NoError(t, err)
		got <- res
	}()
	var own struct{ ID string }
	require.NoError(t, json.Unmarshal([]byte(h.Client.Recv()), &own))
	h.Client.Send(fmt.Sprintf(`[{"jsonrpc":"2.0","id":7,"result":{"outcome":{"outcome":"_vendor_later"}}},{"jsonrpc":"2.0","id":%q,"result":{"mine":1}},{"jsonrpc":"2.0","id":8,"result":null}]`, own.ID))
	assert.JSONEq(t, `{"mine":1}`, string(<-got))
	assert.Equal(t, `[{"jsonrpc":"2.0","id":7,"result":{"rewritten":true}},{"jsonrpc":"2.0","id":8,"result":null}]`, h.Agent.Recv())
}

// A message an interceptor writes After its own goes out after the whole
// batch, as it would after a message that came alone.
func TestBatchAfterHooksRunOnceTheBatchIsOut(t *testing.T) {
	h := relaytest.New(t, relay.Config{}, func(r *relay.Relay) {
		r.FromClient("_first", func(m *relay.Message) relay.Verdict {
			return relay.Verdict{After: func() { r.Agent.Notify("_after", nil) }}
		})
	})
	h.Client.Send(`[{"jsonrpc":"2.0","method":"_first"},{"jsonrpc":"2.0","method":"_second"}]`)
	assert.Equal(t, `[{"jsonrpc":"2.0","method":"_first"},{"jsonrpc":"2.0","method":"_second"}]`, h.Agent.Recv())
	assert.Equal(t, `{"jsonrpc":"2.0","method":"_after"}`, h.Agent.Recv())
}

// A taken message's After runs once the rest of its batch is out, so what
// askbridge sends for it (a question's permission request, a state update)
// comes after the messages that arrived with it and before it. The
// v2-claude-batch fixture failed 1 run in 3 before: the question's
// goroutine started on taking and raced the batch's forwarding.
func TestATakenMessagesAfterRunsOnceItsBatchIsOut(t *testing.T) {
	h := relaytest.New(t, relay.Config{}, func(r *relay.Relay) {
		r.FromAgent("elicitation/create", func(m *relay.Message) relay.Verdict {
			return relay.Verdict{Take: true, After: func() { r.Client.Notify("_askbridge/after", nil) }}
		})
	})
	for range 50 {
		h.Agent.Send(`[{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{}},{"jsonrpc":"2.0","method":"session/update","params":{"n":1}}]`)
		assert.Equal(t, `[{"jsonrpc":"2.0","method":"session/update","params":{"n":1}}]`, h.Client.Recv())
		assert.Contains(t, h.Client.Recv(), `"_askbridge/after"`)
	}
}
