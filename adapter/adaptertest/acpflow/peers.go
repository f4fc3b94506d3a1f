package acpflow

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter/relay/relaytest"
)

// Msg is a decoded JSON-RPC message.
type Msg = relaytest.Msg

// Decode reads one line as a Msg, failing the test when it is not JSON.
func Decode(t *testing.T, line string) Msg {
	t.Helper()
	return relaytest.Decode(t, line)
}

// Peers is a relay between a scripted client (Client) and a scripted
// agent (Agent), with whatever the test installed on it.
type Peers struct {
	*relaytest.Harness
}

// OpenSession opens session id at /tmp/p and starts a prompt in it, the
// agent and the client each seeing the other's lines.
func (h *Peers) OpenSession(t *testing.T, id string) {
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
func (h *Peers) NextRequest(t *testing.T, method string) (Msg, []Msg) {
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
func (h *Peers) Answer(t *testing.T, req Msg, result string) {
	t.Helper()
	h.Client.Send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, result))
}

// Pick is the result of a permission request answered with the option
// whose id is label.
func Pick(label string) string {
	return fmt.Sprintf(`{"outcome":{"outcome":"selected","optionId":%q}}`, label)
}

// AgentReply reads the agent-bound lines until the response to id.
func (h *Peers) AgentReply(t *testing.T, id string) Msg {
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
func (h *Peers) UnknownMethod(t *testing.T, method string) {
	t.Helper()
	fwd, _ := h.NextRequest(t, method)
	h.Client.Send(`{"jsonrpc":"2.0","id":` + string(fwd.ID) + `,"error":{"code":-32601,"message":"Method not found"}}`)
}

// Prompt sends session/prompt rid with text in session id, and returns
// the prompt's text blocks as the agent got them (what was added before
// the user's own text included).
func (h *Peers) Prompt(t *testing.T, rid, id, text string) []string {
	t.Helper()
	h.Client.Send(`{"jsonrpc":"2.0","id":"` + rid + `","method":"session/prompt","params":{"sessionId":"` + id + `","prompt":[{"type":"text","text":"` + text + `"}]}}`)
	var got Msg
	for got.Method != "session/prompt" {
		got = Decode(t, h.Agent.Recv())
	}
	return PromptText(t, got)
}

// PromptText is the text blocks of session/prompt m.
func PromptText(t *testing.T, m Msg) []string {
	t.Helper()
	var p struct {
		Prompt []struct{ Type, Text string } `json:"prompt"`
	}
	require.NoError(t, json.Unmarshal(m.Params, &p))
	var out []string
	for _, b := range p.Prompt {
		out = append(out, b.Text)
	}
	return out
}
