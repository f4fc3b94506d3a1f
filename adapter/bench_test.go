package adapter

import (
	"testing"

	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/adapter/relay/relaytest"
)

// BenchmarkBridgeNotifications is the relay's BenchmarkRelayNotifications
// with the bridge and every dialect installed: what the hooks on
// session/update cost a message they do not want.
func BenchmarkBridgeNotifications(b *testing.B) {
	relaytest.Notifications(b, func(r *relay.Relay) { NewBridge(Options{}).Setup(r) })
}

// BenchmarkBridgeNotificationsToAgent is the other way, client to agent,
// with a method no dialect wants.
func BenchmarkBridgeNotificationsToAgent(b *testing.B) {
	relaytest.NotificationsToAgent(b, func(r *relay.Relay) { NewBridge(Options{}).Setup(r) })
}
