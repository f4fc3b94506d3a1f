package hub

import (
	"context"
	"github.com/askbridge/askbridge/testkit/testenv"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/permission/permissiontest"
)

// socket is a fresh socket path short enough for sun_path.
func socket(t *testing.T) string {
	testenv.SkipUnderWine(t, testenv.NoUnixSockets)
	dir, err := os.MkdirTemp("", "abhub")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	return filepath.Join(dir, "askbridge", "hub.sock")
}

// startHub serves a hub on path until the test ends or stop is called.
func startHub(t *testing.T, path string) (h *Hub, board *permission.Board, stop func()) {
	ln, err := Listen(path)
	require.NoError(t, err)
	board = permission.NewBoard()
	h = New(board, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { h.Serve(ctx, ln); close(done) }()
	stop = func() { cancel(); <-done }
	t.Cleanup(stop)
	return h, board, stop
}

// logFolder is a folder for a decisions log, made before the hub so that
// it goes after the hub stopped (cleanups run last first); a set the hub
// withdraws as it stops is recorded by a goroutine that may still be
// writing, so removing it is tried again for a moment.
func logFolder(t *testing.T) string {
	dir, err := os.MkdirTemp("", "hub-decisions")
	require.NoError(t, err)
	t.Cleanup(func() {
		for range 50 {
			if os.RemoveAll(dir) == nil {
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Errorf("removing %s: still written to after the hub stopped", dir)
	})
	return dir
}

func report(t *testing.T, path, cwd string) (*permission.Board, context.CancelFunc) {
	board := permission.NewBoard()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	Report(ctx, board, path, Instance{Agent: "scripted", PID: os.Getpid(), Host: "here", CWD: cwd}, nil)
	return board, cancel
}

func ask(b *permission.Board, session, text string) *permission.Ticket {
	return b.Open(permission.Request{SessionID: session, Round: 1, Questions: []permission.Question{
		{Question: text, Header: "H", Options: []permission.Option{{Label: "a"}, {Label: "b"}}}}})
}

// waitPending waits for the hub's board to list n sets.
func waitPending(t *testing.T, b *permission.Board, n int) []permission.Pending {
	t.Helper()
	var list []permission.Pending
	require.Eventually(t, func() bool { list = b.List(); return len(list) == n }, 5*time.Second, 10*time.Millisecond, "want %d pending on the hub", n)
	return list
}

func TestSetsReachTheHubAndItsAnswerGoesBack(t *testing.T) {
	path := socket(t)
	h, hb, _ := startHub(t, path)
	b1, _ := report(t, path, "/src/one")
	b2, _ := report(t, path, "/src/two")
	t1 := ask(b1, "sess-1", "One?")
	t2 := ask(b2, "sess-1", "Two?")
	list := waitPending(t, hb, 2)
	assert.NotEqual(t, list[0].SessionID, list[1].SessionID, "sessions are told apart per askbridge")
	byText := map[string]string{}
	for _, p := range list {
		inst, cwd := h.origin(p.ID)
		byText[p.Questions[0].Question] = cwd
		assert.Equal(t, "scripted", inst.Agent)
	}
	assert.Equal(t, map[string]string{"One?": "/src/one", "Two?": "/src/two"}, byText)
	assert.Len(t, h.Instances(), 2)

	hubID := list[0].ID
	if list[0].Questions[0].Question != "Two?" {
		hubID = list[1].ID
	}
	_, err := hb.ProgressBy(hubID, 0, []permission.Answer{{Labels: []string{"b"}}}, permissiontest.InProcess(""))
	require.NoError(t, err)
	select {
	case <-t2.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the hub's answer did not reach the askbridge")
	}
	r := t2.Result()
	assert.Equal(t, permission.SourceHub, r.Source)
	assert.Equal(t, []string{"b"}, r.Answers[0].Answer.Labels)
	assert.Equal(t, permission.StatePending, t1Pending(b1, t1).State, "the other askbridge's set is untouched")

	// Answered in the editor: the hub's set is settled too.
	require.NoError(t, b1.Settle(t1.ID, permission.Result{Answers: []permission.Answered{{Answer: permission.Answer{Labels: []string{"a"}}}}}, permission.ByEditor()))
	waitPending(t, hb, 0)
}

func t1Pending(b *permission.Board, t *permission.Ticket) permission.Pending {
	p, _ := b.Get(t.ID)
	return p
}

func TestAnAskbridgeThatLeavesHasItsSetsCancelled(t *testing.T) {
	path := socket(t)
	_, hb, _ := startHub(t, path)
	b, leave := report(t, path, "/src")
	ask(b, "s", "Q?")
	p := waitPending(t, hb, 1)[0]
	leave()
	waitPending(t, hb, 0)
	got, _ := hb.Get(p.ID)
	assert.Equal(t, permission.StateCancelled, got.State)
	assert.Equal(t, permission.SourceHub, got.Result.Source)
}

func TestARestartedHubGetsThePendingSetsBack(t *testing.T) {
	path := socket(t)
	_, hb, stop := startHub(t, path)
	b, _ := report(t, path, "/src")
	tk := ask(b, "s", "Q?")
	waitPending(t, hb, 1)
	stop()
	_, hb2, _ := startHub(t, path)
	start := time.Now()
	p := waitPending(t, hb2, 1)[0]
	assert.Less(t, time.Since(start), 2*time.Second+500*time.Millisecond)
	require.NoError(t, hb2.Withdraw(p.ID, "rejected at the answer desk", permission.BySelf(permission.SourceDesk)))
	select {
	case <-tk.Done():
		assert.Equal(t, permission.SourceHub, tk.Result().Source)
	case <-time.After(5 * time.Second):
		t.Fatal("the reject did not reach the askbridge")
	}
}

func TestASecondHubIsRefusedAndAStaleSocketTakenOver(t *testing.T) {
	path := socket(t)
	startHub(t, path)
	_, err := Listen(path)
	require.ErrorIs(t, err, ErrRunning)

	stale := socket(t)
	require.NoError(t, os.MkdirAll(filepath.Dir(stale), 0o700))
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: stale, Net: "unix"})
	require.NoError(t, err)
	ln.SetUnlinkOnClose(false)
	ln.Close() // a crashed hub's socket: the file, nobody listening
	_, err = os.Stat(stale)
	require.NoError(t, err)
	ln2, err := Listen(stale)
	require.NoError(t, err)
	defer ln2.Close()
	for p, want := range map[string]os.FileMode{stale: 0o600, filepath.Dir(stale): 0o700} {
		st, err := os.Stat(p)
		require.NoError(t, err)
		assert.Equal(t, want, st.Mode().Perm(), p)
	}
}

// Someone answering at the hub holds the set's deadline off at the
// askbridge too, where it would time out.
func TestAHoldAtTheHubMovesTheAskbridgesDeadline(t *testing.T) {
	path := socket(t)
	_, hb, _ := startHub(t, path)
	b, _ := report(t, path, "/src")
	due := time.Now().Add(30 * time.Second)
	tk := b.Open(permission.Request{SessionID: "s", Round: 1, Deadline: due, Questions: []permission.Question{
		{Question: "Q?", Header: "H", Options: []permission.Option{{Label: "a"}, {Label: "b"}}}}})
	p := waitPending(t, hb, 1)[0]
	require.NotNil(t, p.Deadline)
	_, err := hb.Hold(p.ID, 5*time.Minute)
	require.NoError(t, err)
	require.Eventually(t, func() bool { return tk.Deadline().After(due.Add(time.Minute)) }, 5*time.Second, 10*time.Millisecond)
}

// An approval stays one on the hub: its kind and what it asks to run come
// along, and the hub's pick goes back by the option's name.
func TestAnApprovalReachesTheHubAsOne(t *testing.T) {
	path := socket(t)
	_, hb, _ := startHub(t, path)
	b, _ := report(t, path, "/src/one")
	a := &permission.Approval{ToolCall: []byte(`{"title":"rm -rf build","kind":"execute"}`),
		Options: []permission.ApprovalOption{{OptionID: "ok", Name: "Allow", Kind: "allow_once"}, {OptionID: "no", Name: "Reject", Kind: "reject_once"}}}
	tk := b.Open(permission.Request{SessionID: "s", Approval: a, Questions: []permission.Question{
		{Question: "rm -rf build", Header: "Approval", Kind: permission.Fixed, Options: []permission.Option{{Label: "Allow"}, {Label: "Reject"}}}}})
	list := waitPending(t, hb, 1)
	assert.Equal(t, permission.KindApproval, list[0].Kind)
	require.NotNil(t, list[0].Approval)
	assert.JSONEq(t, string(a.ToolCall), string(list[0].Approval.ToolCall))
	onPage := permission.By{Device: "d1", Name: "Pixel 8", Route: permission.RoutePage, Proof: permission.ProofDevice | permission.ProofPresence}
	_, err := hb.ProgressBy(list[0].ID, 0, []permission.Answer{{Labels: []string{"Reject"}}}, onPage)
	require.NoError(t, err)
	select {
	case <-tk.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the hub's answer did not reach the askbridge")
	}
	assert.Equal(t, []string{"Reject"}, tk.Result().Answers[0].Answer.Labels)
	assert.True(t, tk.Result().Proof.Has(permission.ProofHubKey|permission.ProofPresence), "the hub's link and the page's passkey: %s", tk.Result().Proof)
}
