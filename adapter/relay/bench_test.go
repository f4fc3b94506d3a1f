package relay_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/adapter/relay/relaytest"
)

// BenchmarkRelayNotifications pushes ~1 KiB session/update notifications
// from the agent side to the client side through the relay, in process.
func BenchmarkRelayNotifications(b *testing.B) { relaytest.Notifications(b, nil) }

// BenchmarkRelayNotificationsToAgent is the other way: client to agent.
func BenchmarkRelayNotificationsToAgent(b *testing.B) { relaytest.NotificationsToAgent(b, nil) }

// BenchmarkScan is the relay's per-line work on one ~1 KiB notification:
// finding its method and id, and checking it is one JSON value.
func BenchmarkScan(b *testing.B) {
	line := []byte(fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_0123456789","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":%q}}}}`,
		strings.Repeat("The quick brown fox jumps over the lazy dog. ", 20)))
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := relay.Scan(line); err != nil {
			b.Fatal(err)
		}
	}
}
