package adaptertest

import (
	"testing"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/adapter/adaptertest/acpflow"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/adapter/relay/relaytest"
	"github.com/askbridge/askbridge/permission"
)

// What a flow test sends and reads, the same as the bridge's own tests
// (acpflow), under the names the dialects' tests use.
type (
	// Msg is a decoded JSON-RPC message.
	Msg = acpflow.Msg
	// Permission is what a test reads of a session/request_permission.
	Permission = acpflow.Permission
)

// The reading helpers (acpflow's).
var (
	Decode         = acpflow.Decode
	Pick           = acpflow.Pick
	ReadPermission = acpflow.ReadPermission
	OnBoard        = acpflow.OnBoard
	Settled        = acpflow.Settled
	PromptText     = acpflow.PromptText
)

// Harness is a relay with the bridge installed, between a scripted client
// (Client) and a scripted agent (Agent).
type Harness struct {
	*acpflow.Peers
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
	return Wrap(t, b)
}

// Wrap runs bridge b, made by the test (one that listens, say), between
// the scripted peers; the test's cleanup stops it.
func Wrap(t *testing.T, b *adapter.Bridge) *Harness {
	t.Helper()
	h := relaytest.New(t, relay.Config{}, func(r *relay.Relay) { b.Setup(r) })
	return &Harness{Peers: &acpflow.Peers{Harness: h}, Bridge: b}
}
