package proxy

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/adapter/relay/relaytest"
	"github.com/askbridge/askbridge/permission"
)

// The hub names a v2 editor and agent as it names v1 ones: v2 calls
// clientInfo and agentInfo info (before, a v2 agent showed as its command).
func TestOriginReadsV1AndV2Names(t *testing.T) {
	for _, c := range []struct{ name, req, resp string }{
		{"v1", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientInfo":{"name":"zed"}}}`,
			`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":{"name":"claude-agent-acp","version":"0.101.0"}}}`},
		{"v2", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2,"info":{"name":"zed"}}}`,
			`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":2,"info":{"name":"claude-agent-acp","version":"0.101.0"}}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			var mu sync.Mutex
			var inst permission.Origin
			update := func(fn func(*permission.Origin)) {
				mu.Lock()
				defer mu.Unlock()
				fn(&inst)
			}
			h := relaytest.New(t, relay.Config{}, func(r *relay.Relay) {
				Origin(func(*relay.Relay) func() { return func() {} }, update)(r)
			})
			h.Client.Send(c.req)
			h.Agent.Recv()
			h.Agent.Send(c.resp)
			h.Client.Recv()
			mu.Lock()
			defer mu.Unlock()
			assert.Equal(t, "zed", inst.Client)
			assert.Equal(t, "claude-agent-acp", inst.Agent)
			assert.Equal(t, "0.101.0", inst.AgentVersion)
		})
	}
}
