package adapter

import (
	"testing"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/dialect/approvals/approvalstest"
	"github.com/askbridge/askbridge/adapter/dialect/codex/codextest"
	"github.com/askbridge/askbridge/adapter/dialect/opencode"
	"github.com/askbridge/askbridge/permission"
)

// The dialects' lines and fakes that the bridge's own tests send. Each
// dialect's flow tests live beside it (adapter/dialect/<name>, on
// adapter/adaptertest); the lines both send are defined once, beside the
// dialect (codextest, opencodetest).

// Codex's lines (codextest).
var codexDB, codexPass = codextest.DB, codextest.Pass

// codexAsk starts a bridge, sends form, and returns the first permission
// request and the lines the client saw before it.
func codexAsk(t *testing.T, form string) (*bridgeHarness, rpc, []rpc) {
	t.Helper()
	h := newBridgeHarness(t, Options{Advertise: true})
	h.OpenSession(t, "s1")
	h.Agent.Send(form)
	req, notes := h.NextRequest(t, "session/request_permission")
	return h, req, notes
}

// withOpenCode is the dialect table with OpenCode's server set, as Launch
// would set it.
func withOpenCode(srv *opencode.Server) []dialect.Dialect {
	d := Dialects()
	for _, x := range d {
		if oc, ok := x.(*opencode.Dialect); ok {
			oc.Server = srv
		}
	}
	return d
}

// An agent's approval of a shell command (approvalstest).
const bashCall, bashApproval = approvalstest.BashCall, approvalstest.BashApproval

func approvalsBridge(t *testing.T, opts Options) (*bridgeHarness, *permission.Board) {
	t.Helper()
	opts.Board = permission.NewBoard()
	h := newBridgeHarness(t, opts)
	h.OpenSession(t, "s1")
	return h, opts.Board
}
