package adapter

import (
	"testing"

	"github.com/askbridge/askbridge/adapter/adaptertest/acpflow"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/adapter/relay/relaytest"
	"github.com/askbridge/askbridge/permission"
)

// The bridge's own tests run on the dialects' harness (adapter/adaptertest)
// without its bridge-starting half, which imports this package: the lines
// they send and read are acpflow's, and only the bridge is made here, where
// a test may reach its unexported state.

// syncBuffer collects a log or a recording written from several goroutines.
type syncBuffer = relaytest.Buffer

func newHarness(t *testing.T, setup func(*relay.Relay)) *relaytest.Harness {
	return relaytest.New(t, relay.Config{}, setup)
}

// bridgeHarness is a relay with the bridge installed, between a fake client
// and a fake agent.
type bridgeHarness struct {
	*acpflow.Peers
	bridge *Bridge
}

func newBridgeHarness(t *testing.T, opts Options) *bridgeHarness {
	if opts.Limits == (permission.Limits{}) {
		opts.Limits = permission.DefaultLimits()
	}
	return wrapBridge(t, NewBridge(opts))
}

// wrapBridge runs bridge b, made by the test, between the fake peers.
func wrapBridge(t *testing.T, b *Bridge) *bridgeHarness {
	h := newHarness(t, func(r *relay.Relay) { b.Setup(r) })
	return &bridgeHarness{Peers: &acpflow.Peers{Harness: h}, bridge: b}
}

// The short names the bridge's tests read acpflow's helpers by.
type (
	rpc             = acpflow.Msg
	permissionShape = acpflow.Permission
)

var (
	decode     = acpflow.Decode
	pick       = acpflow.Pick
	shapeOf    = acpflow.ReadPermission
	onBoard    = acpflow.OnBoard
	settled    = acpflow.Settled
	promptText = acpflow.PromptText
)
