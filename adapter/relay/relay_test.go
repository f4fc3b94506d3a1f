package relay_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/adapter/relay/relaytest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRelayKeepsMessagesByteForByte(t *testing.T) {
	h := relaytest.New(t, relay.Config{}, nil)
	// Unknown methods, extension methods, _meta, unknown fields and variants,
	// odd spacing, error data, ids of every JSON type a peer may use.
	toAgent := []string{
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":true},"_meta":{"zed":{"x":[1,2]}}},"futureField":{"a":null}}}`,
		`{"jsonrpc":"2.0","id":"str-id","method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"héllo \u2603 \"q\""}]}}`,
		`{"jsonrpc":"2.0","id":-7,"method":"_x/custom","params":{"deep":{"deeper":[{"k":1.5e-3}]}}}`,
		`{"jsonrpc":"2.0","id":3.0,"method":"session/new","params":{}}`,
		`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s1","_meta":{"why":"user"}}}`,
		`{ "jsonrpc" : "2.0" , "method" : "_zed/notify" }`,
		`[{"jsonrpc":"2.0","method":"batch/is/opaque"}]`,
		// Last, once the client has the request it answers.
		`{"jsonrpc":"2.0","id":"a2c-1","result":{"outcome":{"outcome":"selected","optionId":"x"},"extra":true}}`,
	}
	toClient := []string{
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"a_future_variant","payload":{"z":1}}}}`,
		`{"jsonrpc":"2.0","id":"a2c-1","method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"t"},"options":[]}}`,
		`{"jsonrpc":"2.0","id":9,"method":"fs/read_text_file","params":{"path":"/x"}}`,
		`{"jsonrpc":"2.0","id":0,"error":{"code":-32000,"message":"auth required","data":{"authMethods":["a"]}}}`,
		`{"jsonrpc":"2.0","id":"str-id","result":{"stopReason":"end_turn","_meta":{"usage":{"in":1}}}}`,
		`{"jsonrpc":"2.0","id":-7,"result":null}`,
		`{"jsonrpc":"2.0","id":3,"result":{"sessionId":"s1"}}`,
	}
	// Each side answers what it has received, as a peer does: a response
	// to no request waiting is dropped.
	last := len(toAgent) - 1
	for _, l := range toAgent[:last] {
		h.Client.Send(l)
	}
	for _, l := range toAgent[:last] {
		assert.Equal(t, l, h.Agent.Recv())
	}
	for _, l := range toClient {
		h.Agent.Send(l)
	}
	for _, l := range toClient {
		assert.Equal(t, l, h.Client.Recv())
	}
	h.Client.Send(toAgent[last])
	assert.Equal(t, toAgent[last], h.Agent.Recv())
}

func TestRelayKeepsOrderUnderConcurrentTraffic(t *testing.T) {
	h := relaytest.New(t, relay.Config{}, nil)
	const n = 2000
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := range n {
			if i%3 == 0 {
				h.Client.Send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"session/prompt","params":{"i":%d}}`, i, i))
			} else {
				h.Client.Send(fmt.Sprintf(`{"jsonrpc":"2.0","method":"_n","params":{"i":%d}}`, i))
			}
		}
	}()
	go func() {
		defer wg.Done()
		for i := range n {
			h.Agent.Send(fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/update","params":{"i":%d}}`, i))
		}
	}()
	for i := range n {
		var m struct{ Params struct{ I int } }
		require.NoError(t, json.Unmarshal([]byte(h.Agent.Recv()), &m))
		require.Equal(t, i, m.Params.I)
		require.NoError(t, json.Unmarshal([]byte(h.Client.Recv()), &m))
		require.Equal(t, i, m.Params.I)
	}
	wg.Wait()
}

func TestRelaySlowRequestDoesNotHoldBackLaterMessages(t *testing.T) {
	h := relaytest.New(t, relay.Config{}, nil)
	h.Client.Send(`{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{}}`)
	h.Client.Send(`{"jsonrpc":"2.0","method":"session/cancel","params":{}}`)
	assert.Contains(t, h.Agent.Recv(), `"session/prompt"`)
	assert.Contains(t, h.Agent.Recv(), `"session/cancel"`)
	h.Agent.Send(`{"jsonrpc":"2.0","method":"session/update","params":{}}`)
	assert.Contains(t, h.Client.Recv(), `session/update`)
	h.Agent.Send(`{"jsonrpc":"2.0","id":1,"result":{"stopReason":"cancelled"}}`)
	assert.Contains(t, h.Client.Recv(), `"cancelled"`)
}

func TestRelayPassesA64MiBLine(t *testing.T) {
	h := relaytest.New(t, relay.Config{}, nil)
	big := `{"jsonrpc":"2.0","method":"session/update","params":{"text":"` + strings.Repeat("x", 64<<20) + `"}}`
	go h.Agent.Send(big)
	got := h.Client.RecvWithin(60 * time.Second)
	assert.Equal(t, len(big), len(got))
	assert.True(t, got == big)
	h.Agent.Send(`{"jsonrpc":"2.0","method":"after"}`)
	assert.Equal(t, `{"jsonrpc":"2.0","method":"after"}`, h.Client.Recv())
}

func TestRelayAnswersMalformedLinesAndGoesOn(t *testing.T) {
	h := relaytest.New(t, relay.Config{}, nil)
	h.Client.Send(`this is not json`)
	h.Client.Send(`{"jsonrpc":"2.0","id":1,"method":"x","params":{`)
	h.Client.Send(`{"jsonrpc":"2.0","id":2,"method":"ok"}`)
	for range 2 {
		var resp struct {
			ID    json.RawMessage
			Error relay.Error
		}
		require.NoError(t, json.Unmarshal([]byte(h.Client.Recv()), &resp))
		assert.Equal(t, "null", string(resp.ID))
		assert.Equal(t, relay.CodeParseError, resp.Error.Code)
		assert.Contains(t, resp.Error.Message, "Parse error")
	}
	assert.Equal(t, `{"jsonrpc":"2.0","id":2,"method":"ok"}`, h.Agent.Recv())
	h.Agent.Send(`garbage from the agent`)
	assert.Contains(t, h.Agent.Recv(), `"code":-32700`)
}

func TestRelayInterceptors(t *testing.T) {
	var taken *relay.Message
	h := relaytest.New(t, relay.Config{}, func(r *relay.Relay) {
		r.FromClient("initialize", relay.RewriteParams(func(p json.RawMessage) (json.RawMessage, error) {
			return json.RawMessage(`{"rewritten":true}`), nil
		}))
		r.FromAgent("_askbridge/ask", func(m *relay.Message) relay.Verdict {
			taken = m.Clone()
			go r.Agent.Reply(taken.ID, map[string]string{"answered": "by askbridge"})
			return relay.Verdict{Take: true}
		})
		r.FromClient("session/new", func(m *relay.Message) relay.Verdict {
			return relay.Verdict{OnResponse: func(resp json.RawMessage) json.RawMessage {
				return json.RawMessage(bytes.Replace(resp, []byte(`"s1"`), []byte(`"seen"`), 1))
			}}
		})
	})
	h.Client.Send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"a":1}}`)
	assert.JSONEq(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rewritten":true}}`, h.Agent.Recv())

	h.Agent.Send(`{"jsonrpc":"2.0","id":5,"method":"_askbridge/ask","params":{"questions":[]}}`)
	assert.JSONEq(t, `{"jsonrpc":"2.0","id":5,"result":{"answered":"by askbridge"}}`, h.Agent.Recv())
	assert.Equal(t, "_askbridge/ask", taken.Method)

	h.Client.Send(`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{}}`)
	h.Agent.Recv()
	h.Agent.Send(`{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s1"}}`)
	assert.Equal(t, `{"jsonrpc":"2.0","id":2,"result":{"sessionId":"seen"}}`, h.Client.Recv())
}

func TestPeerCallRoutesItsOwnResponsesAndWithdrawsOnCancel(t *testing.T) {
	h := relaytest.New(t, relay.Config{}, nil)
	done := make(chan json.RawMessage)
	go func() {
		res, err := h.Relay.Client.Call(t.Context(), "session/request_permission", map[string]any{"sessionId": "s1"})
		assert.NoError(t, err)
		done <- res
	}()
	var req struct {
		ID     string
		Method string
	}
	require.NoError(t, json.Unmarshal([]byte(h.Client.Recv()), &req))
	assert.Equal(t, "session/request_permission", req.Method)
	// A response with the same id from the agent's namespace is not ours.
	h.Client.Send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"result":{"outcome":{"outcome":"cancelled"}}}`, req.ID))
	assert.JSONEq(t, `{"outcome":{"outcome":"cancelled"}}`, string(<-done))

	ctx, cancel := context.WithCancel(t.Context())
	errc := make(chan error)
	go func() {
		_, err := h.Relay.Client.Call(ctx, "session/request_permission", nil)
		errc <- err
	}()
	require.NoError(t, json.Unmarshal([]byte(h.Client.Recv()), &req))
	cancel()
	assert.ErrorIs(t, <-errc, context.Canceled)
	assert.JSONEq(t, fmt.Sprintf(`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":%q}}`, req.ID), h.Client.Recv())
}

func TestRecordWritesEveryLineBothWays(t *testing.T) {
	h := relaytest.New(t, relay.Config{}, nil)
	h.Client.Send(`{"jsonrpc":"2.0","id":1,"method":"initialize"}`)
	h.Agent.Recv()
	h.Agent.Send(`{"jsonrpc":"2.0","id":1,"result":{}}`)
	h.Client.Recv()
	h.Relay.Flush()
	sc := bufio.NewScanner(strings.NewReader(h.Rec.String()))
	var got []string
	for sc.Scan() {
		var e struct {
			Dir string
			T   float64
			Msg json.RawMessage
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &e))
		got = append(got, e.Dir+" "+string(e.Msg))
	}
	assert.Equal(t, []string{
		`c2a {"jsonrpc":"2.0","id":1,"method":"initialize"}`,
		`a2c {"jsonrpc":"2.0","id":1,"result":{}}`,
	}, got)
}

func TestFailPendingAnswersEveryWaitingClientRequest(t *testing.T) {
	h := relaytest.New(t, relay.Config{}, nil)
	h.Client.Send(`{"jsonrpc":"2.0","id":1,"method":"session/prompt"}`)
	h.Client.Send(`{"jsonrpc":"2.0","id":"two","method":"session/prompt"}`)
	h.Client.Send(`{"jsonrpc":"2.0","id":3,"method":"session/new"}`)
	for range 3 {
		h.Agent.Recv()
	}
	h.Agent.Send(`{"jsonrpc":"2.0","id":3,"result":{}}`)
	h.Client.Recv()
	h.Relay.FailPending(relay.Internal("askbridge: the agent exited: exit status 3", nil))
	ids := map[string]bool{}
	for range 2 {
		var resp struct {
			ID    json.RawMessage
			Error relay.Error
		}
		require.NoError(t, json.Unmarshal([]byte(h.Client.Recv()), &resp))
		assert.Equal(t, "askbridge: the agent exited: exit status 3", resp.Error.Message)
		ids[string(resp.ID)] = true
	}
	assert.Equal(t, map[string]bool{`1`: true, `"two"`: true}, ids)
	h.Client.Send(`{"jsonrpc":"2.0","id":4,"method":"session/prompt"}`)
	assert.Contains(t, h.Client.Recv(), `"id":4,"error"`)
}
