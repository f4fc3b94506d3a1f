//go:build linux || darwin

package hub

import (
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/internal/hubkey"
	"github.com/askbridge/askbridge/permission"
)

// startInbox serves a hub and its inbox, the page's API a stand-in that
// counts the requests let through.
func startInbox(t *testing.T, opts InboxOptions) (h *Hub, board *permission.Board, path string, through *atomic.Int32) {
	path = socket(t)
	ln, err := Listen(path)
	require.NoError(t, err)
	board = permission.NewBoard()
	h = New(board, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { h.Serve(ctx, ln); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	through = new(atomic.Int32)
	h.ServeInbox(ctx, ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		through.Add(1)
		io.WriteString(w, "[]")
	}), opts)
	return h, board, path, through
}

// inboxDo sends a request to the inbox's socket, as askbridge inbox does.
func inboxDo(t *testing.T, path, method, target string) (int, string) {
	c := http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return Dial(ctx, InboxPath(path), hubkey.ALPNInbox)
	}}}
	req, err := http.NewRequest(method, "http://localhost"+target, strings.NewReader(`{}`))
	require.NoError(t, err)
	resp, err := c.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// A process below an askbridge connected to the hub (here the test itself,
// once it connects as an askbridge does) is refused; once the askbridge
// leaves it is the user again.
func TestInboxRefusesAProcessInsideAnAgentsTree(t *testing.T) {
	h, _, path, through := startInbox(t, InboxOptions{})
	fi, err := os.Stat(InboxPath(path))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())

	status, _ := inboxDo(t, path, "GET", "/question")
	require.Equal(t, http.StatusOK, status, "the user's own process")

	reporter, err := Dial(t.Context(), path, hubkey.ALPNHub)
	require.NoError(t, err)
	require.Eventually(t, func() bool { return h.askbridges.has(os.Getpid()) }, 5*time.Second, 10*time.Millisecond)
	status, body := inboxDo(t, path, "GET", "/question")
	assert.Equal(t, http.StatusForbidden, status)
	assert.Contains(t, body, "runs below an askbridge, inside an agent's process tree")
	assert.Equal(t, int32(1), through.Load(), "nothing reached the page's API")

	reporter.Close()
	require.Eventually(t, func() bool { return !h.askbridges.has(os.Getpid()) }, 5*time.Second, 10*time.Millisecond)
	status, _ = inboxDo(t, path, "GET", "/question")
	assert.Equal(t, http.StatusOK, status)
}

func approval(b *permission.Board) *permission.Ticket {
	return b.Open(permission.Request{SessionID: "s", Round: 1, Approval: &permission.Approval{ToolCall: []byte(`{"title":"rm -rf ~/important"}`),
		Options: []permission.ApprovalOption{{OptionID: "allow", Name: "Allow"}, {OptionID: "reject", Name: "Reject"}}},
		Questions: []permission.Question{{Question: "Allow rm -rf ~/important?", Header: "Approve", Options: []permission.Option{{Label: "Allow"}, {Label: "Reject"}}}}})
}

// The inbox answers questions; an approval only with --inbox-approvals.
// Only the routes the inbox needs are there.
func TestInboxTakesApprovalsOnlyWhenAllowed(t *testing.T) {
	_, board, path, through := startInbox(t, InboxOptions{})
	a := approval(board)
	q := ask(board, "s", "Which?")
	status, body := inboxDo(t, path, "POST", "/question/"+a.ID+"/reply")
	assert.Equal(t, http.StatusForbidden, status)
	assert.Contains(t, body, "no approvals from the terminal inbox")
	assert.Zero(t, through.Load())
	status, _ = inboxDo(t, path, "POST", "/question/"+q.ID+"/reply")
	assert.Equal(t, http.StatusOK, status)
	assert.Equal(t, int32(1), through.Load())
	status, _ = inboxDo(t, path, "POST", "/question/"+a.ID+"/hold")
	assert.Equal(t, http.StatusForbidden, status, "no claim of an approval the inbox cannot answer")
	for _, target := range []string{"/question/" + q.ID + "/reject", "/api/task/answer"} {
		status, _ = inboxDo(t, path, "POST", target)
		assert.Contains(t, []int{http.StatusNotFound, http.StatusMethodNotAllowed}, status, target)
	}
	assert.Equal(t, int32(1), through.Load())

	_, board, path, through = startInbox(t, InboxOptions{Approvals: true})
	a = approval(board)
	status, _ = inboxDo(t, path, "POST", "/question/"+a.ID+"/reply")
	assert.Equal(t, http.StatusOK, status)
	assert.Equal(t, int32(1), through.Load())
}
