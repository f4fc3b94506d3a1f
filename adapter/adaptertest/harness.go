package adaptertest

import (
	"fmt"
	"testing"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/adapter/relay/relaytest"
	"github.com/askbridge/askbridge/permission"
)

// Msg is a decoded JSON-RPC message.
type Msg = relaytest.Msg

// Decode reads one line as a Msg, failing the test when it is not JSON.
func Decode(t *testing.T, line string) Msg {
	t.Helper()
	return relaytest.Decode(t, line)
}

// Harness is a relay with the bridge installed, between a scripted client
// (Client) and a scripted agent (Agent).
type Harness struct {
	*relaytest.Harness
	Bridge *adapter.Bridge
}

// New starts a bridge with opts (the default limits when opts sets none);
// the test's cleanup stops it.
func New(t *testing.T, opts adapter.Options) *Harness {
	t.Helper()
	if opts.Limits == (permission.Limits{}) {
		opts.Limits = permission.DefaultLimits()
	}
	b := adapter.NewBridge(opts)
	h := relaytest.New(t, relay.Config{}, func(r *relay.Relay) { b.Setup(r) })
	return &Harness{Harness: h, Bridge: b}
}

// OpenSession opens session id at /tmp/p and starts a prompt in it, the
// agent and the client each seeing the other's lines.
func (h *Harness) OpenSession(t *testing.T, id string) {
	t.Helper()
	h.Client.Send(`{"jsonrpc":"2.0","id":"new","method":"session/new","params":{"cwd":"/tmp/p","mcpServers":[]}}`)
	h.Agent.Recv()
	h.Agent.Send(fmt.Sprintf(`{"jsonrpc":"2.0","id":"new","result":{"sessionId":%q}}`, id))
	h.Client.Recv()
	h.Client.Send(fmt.Sprintf(`{"jsonrpc":"2.0","id":"p1","method":"session/prompt","params":{"sessionId":%q,"prompt":[]}}`, id))
	h.Agent.Recv()
}

// NextRequest reads client-bound lines until a request with method comes,
// returning it and the notifications seen before it.
func (h *Harness) NextRequest(t *testing.T, method string) (Msg, []Msg) {
	t.Helper()
	var notes []Msg
	for {
		m := Decode(t, h.Client.Recv())
		if m.Method == method && m.ID != nil {
			return m, notes
		}
		notes = append(notes, m)
	}
}

// Answer sends the client's response to request req, with result.
func (h *Harness) Answer(t *testing.T, req Msg, result string) {
	t.Helper()
	h.Client.Send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, result))
}

// Pick is the result of a permission request answered with the option
// whose id is label.
func Pick(label string) string {
	return fmt.Sprintf(`{"outcome":{"outcome":"selected","optionId":%q}}`, label)
}

// AgentReply reads the agent-bound lines until the response to id.
func (h *Harness) AgentReply(t *testing.T, id string) Msg {
	t.Helper()
	for {
		m := Decode(t, h.Agent.Recv())
		if string(m.ID) == id && m.Method == "" {
			return m
		}
	}
}

// UnknownMethod is the answer of a client that does not know a request:
// it reads the next request with method and answers it -32601.
func (h *Harness) UnknownMethod(t *testing.T, method string) {
	t.Helper()
	fwd, _ := h.NextRequest(t, method)
	h.Client.Send(`{"jsonrpc":"2.0","id":` + string(fwd.ID) + `,"error":{"code":-32601,"message":"Method not found"}}`)
}
