package adapter

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A client's session/cancel reaches the agent before the answers it
// cancels, every time: the fixtures recorded from real agents want it in
// that order (codex-session-cancel-while-pending once replayed the other
// way round on a loaded machine), and so does ACP, where a client cancels
// and then answers its pending requests "cancelled".
func TestSessionCancelReachesTheAgentBeforeTheAnswersItCancels(t *testing.T) {
	for i := range 30 {
		h := newBridgeHarness(t, Options{})
		h.OpenSession(t, "s1")
		h.Agent.Send(askDatabase)
		h.NextRequest(t, "session/request_permission")
		h.Client.Send(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s1"}}`)
		first := decode(t, h.Agent.Recv())
		require.Equal(t, "session/cancel", first.Method, "run %d: the agent got %s%s before the client's cancel", i, first.Method, first.Result)
		second := decode(t, h.Agent.Recv())
		require.Equal(t, "7", string(second.ID), "run %d: then the answer to its question", i)
	}
}
