//go:build linux || darwin

package hub

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/internal/hubkey"
	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route/desk"
)

// The inbox in front of the real page's API: what the hub checked of the
// caller, and the user's leave to approve (--inbox-approvals), reach the
// board's gate, which decides; without the leave the approval waits.
func TestInboxApprovalPassesTheBoardsGateOnlyWithLeave(t *testing.T) {
	for _, allowed := range []bool{false, true} {
		path := socket(t)
		ln, err := Listen(path)
		require.NoError(t, err)
		board := permission.NewBoard()
		h := New(board, nil)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { h.Serve(ctx, ln); close(done) }()
		tcp, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		page := desk.New(tcp, board, desk.Options{Hub: true})
		h.ServeInbox(ctx, ln, page.LocalHandler(), InboxOptions{Approvals: allowed})

		a := approval(board)
		status, body := inboxPost(t, path, "/question/"+a.ID+"/reply", `{"answers":[["Allow"]]}`)
		if !allowed {
			assert.Equal(t, http.StatusForbidden, status, body)
			p, _ := board.Get(a.ID)
			assert.Equal(t, permission.StatePending, p.State, "the approval waits")
		} else {
			require.Equal(t, http.StatusOK, status, body)
			<-a.Done()
			assert.Equal(t, permission.SourceInbox, a.Result().Source)
		}
		page.Close()
		cancel()
		<-done
	}
}

// inboxPost posts body to the inbox's socket, as askbridge inbox does.
func inboxPost(t *testing.T, path, target, body string) (int, string) {
	c := http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return Dial(ctx, InboxPath(path), hubkey.ALPNInbox)
	}}}
	resp, err := c.Post("http://localhost"+target, "application/json", strings.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}
