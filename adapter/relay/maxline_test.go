package relay_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/adapter/relay/relaytest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const testMaxLine = 1000

// pad returns a JSON string of n x's: a params or result member that makes
// a line as long as wanted. Lines of 2,000 bytes fit in the reader's buffer
// and are seen whole; lines of 200,000 are seen by their first 64 KiB only.
func pad(n int) string { return `"` + strings.Repeat("x", n) + `"` }

func limitedHarness(t *testing.T) (*relaytest.Harness, *relaytest.Buffer) {
	var log *relaytest.Buffer
	h := relaytest.New(t, relay.Config{MaxLine: testMaxLine}, func(r *relay.Relay) { log = debugLog(r) })
	return h, log
}

type rpcError struct {
	ID    json.RawMessage
	Error *relay.Error
}

func readError(t *testing.T, p *relaytest.End) rpcError {
	t.Helper()
	var resp rpcError
	line := p.Recv()
	require.NoError(t, json.Unmarshal([]byte(line), &resp), line)
	require.NotNil(t, resp.Error, line)
	return resp
}

func TestMaxLineRefusesALongRequestWithAnErrorToItsID(t *testing.T) {
	h, log := limitedHarness(t)
	for _, n := range []int{2000, 200_000} {
		line := `{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":{"text":` + pad(n) + `}}`
		h.Client.Send(line)
		resp := readError(t, h.Client)
		assert.Equal(t, "7", string(resp.ID))
		assert.Equal(t, relay.CodeInvalidRequest, resp.Error.Code)
		assert.Equal(t, fmt.Sprintf("askbridge: refused a message of %d bytes from the client: the limit (--max-line) is %d bytes", len(line), testMaxLine), resp.Error.Message)
		h.NothingElseToAgent(t)

		h.Agent.Send(`{"jsonrpc":"2.0","id":"fs-1","method":"fs/write_text_file","params":{"content":` + pad(n) + `}}`)
		resp = readError(t, h.Agent)
		assert.Equal(t, `"fs-1"`, string(resp.ID))
		assert.Contains(t, resp.Error.Message, "from the agent")
	}
	assert.Contains(t, log.String(), "refused a request longer than --max-line")
	// A line of exactly the limit passes.
	exact := `{"jsonrpc":"2.0","id":8,"method":"m","params":` + pad(testMaxLine-len(`{"jsonrpc":"2.0","id":8,"method":"m","params":""}`)) + `}`
	require.Len(t, exact, testMaxLine)
	h.Client.Send(exact)
	assert.Equal(t, exact, h.Agent.Recv())
}

// Where the id is not among the first bytes kept, the error goes to id
// null, as for a line that cannot be parsed; a line seen whole is answered
// under its id wherever it is.
func TestMaxLineAnswersIDNullWhenTheIDIsPastThePrefix(t *testing.T) {
	h, _ := limitedHarness(t)
	h.Client.Send(`{"jsonrpc":"2.0","method":"session/prompt","params":{"text":` + pad(200_000) + `},"id":9}`)
	assert.Equal(t, "null", string(readError(t, h.Client).ID))
	h.Client.Send(`{"jsonrpc":"2.0","method":"session/prompt","params":{"text":` + pad(2000) + `},"id":9}`)
	assert.Equal(t, "9", string(readError(t, h.Client).ID))
	h.NothingElseToAgent(t)
}

func TestMaxLineDropsALongNotificationWithALogLine(t *testing.T) {
	h, log := limitedHarness(t)
	h.Agent.Send(`{"jsonrpc":"2.0","method":"session/update","params":{"text":` + pad(2000) + `}}`)
	h.Agent.Send(`{"jsonrpc":"2.0","method":"_marker"}`)
	assert.Equal(t, `{"jsonrpc":"2.0","method":"_marker"}`, h.Client.Recv(), "the notification was not refused")
	assert.Contains(t, log.String(), "refused a notification longer than --max-line")
	assert.Contains(t, log.String(), "method=session/update")
}

// A response too long is logged, and the request it answers gets an error
// in its place: the client is not left waiting.
func TestMaxLineAnswersTheRequestOfALongResponseWithAnError(t *testing.T) {
	h, log := limitedHarness(t)
	for _, n := range []int{2000, 200_000} {
		h.Client.Send(`{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{}}`)
		h.Agent.Recv()
		h.Agent.Send(`{"jsonrpc":"2.0","id":3,"result":{"text":` + pad(n) + `}}`)
		resp := readError(t, h.Client)
		assert.Equal(t, "3", string(resp.ID))
		assert.Contains(t, resp.Error.Message, "from the agent")
	}
	assert.Contains(t, log.String(), "refused a response longer than --max-line")
	// Answered: the agent's exit has nothing left to fail.
	h.Relay.FailPending(relay.Internal("agent gone", nil))
	h.Client.Send(`{"jsonrpc":"2.0","method":"_marker"}`)
	h.Agent.Send(`{"jsonrpc":"2.0","method":"_marker"}`)
	assert.Equal(t, `{"jsonrpc":"2.0","method":"_marker"}`, h.Client.Recv())
}

func TestMaxLineFailsAskbridgesOwnCallOnALongAnswer(t *testing.T) {
	h, _ := limitedHarness(t)
	errc := make(chan error, 1)
	go func() {
		_, err := h.Relay.Client.Call(t.Context(), "session/request_permission", nil)
		errc <- err
	}()
	id := ownRequest(t, h)
	h.Client.Send(`{"jsonrpc":"2.0","id":` + id + `,"result":{"outcome":` + pad(200_000) + `}}`)
	err := <-errc
	var e *relay.Error
	require.True(t, errors.As(err, &e), "%v", err)
	assert.Equal(t, relay.CodeInvalidRequest, e.Code)
	h.NothingElseToAgent(t)
}

func TestScanPrefixReadsWhatEndsWithinIt(t *testing.T) {
	tests := []struct {
		prefix, method, id, cut string
		response                bool
	}{
		{prefix: `{"jsonrpc":"2.0","id":12,"method":"a","params":{"x":"yyy`, method: "a", id: "12", cut: "params"},
		{prefix: `{"id":12`, cut: "id"}, // 12 may go on: 123…
		{prefix: `{"id":"ab`, cut: "id"},
		{prefix: `{"id":"ab","result":[1,2`, id: `"ab"`, cut: "result"},
		{prefix: `{"id":"ab","error":{}`, id: `"ab"`, response: true},
		{prefix: `{"method":"m\"x","params":`, method: `m\"x`, cut: "params"},
		{prefix: `{"params":{"id":1},"id":[1,`, cut: "id"},
		{prefix: `{"meth`},
		{prefix: `[{"id":1,"method":"a"}`},
	}
	for _, tt := range tests {
		h, cut := relay.ScanPrefix([]byte(tt.prefix))
		assert.Equal(t, tt.method, string(h.Method()), tt.prefix)
		assert.Equal(t, tt.id, string(h.ID()), tt.prefix)
		assert.Equal(t, tt.cut, cut, tt.prefix)
		assert.Equal(t, tt.response, h.Response(), tt.prefix)
	}
}
