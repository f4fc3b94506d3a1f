//go:build linux || darwin

package hub

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The inbox asks what it may answer (GET /inbox), so that it offers no
// choice the hub refuses: an approval only with --inbox-approvals.
func TestInboxIsToldWhetherItTakesApprovals(t *testing.T) {
	for _, allowed := range []bool{false, true} {
		_, _, path, through := startInbox(t, InboxOptions{Approvals: allowed})
		status, body := inboxDo(t, path, "GET", "/inbox")
		assert.Equal(t, http.StatusOK, status)
		assert.JSONEq(t, map[bool]string{false: `{"approvals":false}`, true: `{"approvals":true}`}[allowed], body)
		assert.Zero(t, through.Load(), "the hub's own answer, not the page's API")
	}
}
