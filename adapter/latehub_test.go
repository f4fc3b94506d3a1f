package adapter

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/internal/notes"
	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/permission/permissiontest"
	"github.com/askbridge/askbridge/route/hub"
)

// startLateHub runs a hub keeping late answers in store, board reporting
// to it as an askbridge of this machine does; it returns the hub's board.
func startLateHub(t *testing.T, board *permission.Board, store *notes.Store) *permission.Board {
	dir, err := os.MkdirTemp("", "ablate") // short: a socket's path is bounded
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "askbridge", "hub.sock")
	ln, err := hub.Listen(sock)
	require.NoError(t, err)
	hubBoard := permission.NewBoard()
	h := hub.New(hubBoard, nil)
	h.KeepLate(store)
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() { h.Serve(ctx, ln); close(served) }()
	host, _ := os.Hostname()
	hub.Report(ctx, board, sock, hub.Instance{Agent: "late", PID: 1 << 22, Host: host, CWD: "/tmp/p"}, nil)
	t.Cleanup(func() { stop(); <-served })
	return hubBoard
}

// hubCard waits for the hub's one pending card to say note.
func hubCard(t *testing.T, hb *permission.Board, note string) permission.Pending {
	t.Helper()
	var p permission.Pending
	waitFor(t, "the hub's card says: "+note, func() bool {
		l := hb.List()
		if len(l) == 1 {
			p = l[0]
		}
		return len(l) == 1 && l[0].Note == note
	})
	return p
}

// storeHolds reports whether the notes store in dir holds a note.
func storeHolds(dir string) bool {
	found := false
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		found = found || (err == nil && !d.IsDir() && strings.HasSuffix(path, ".json"))
		return nil
	})
	return found
}

// A set the agent stopped waiting for stays on the hub after its
// askbridge stopped, saying so; answered there, the answer reaches the
// first prompt of the next askbridge serving the session (acpx starts one
// per prompt), once, as a late answer. Before, the stopping askbridge
// cancelled it and the hub with it.
func TestALateAnswerGivenAtTheHubAfterItsAskbridgeStopped(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "notes")
	board := permission.NewBoard()
	a := newLateHarness(t, Options{Board: board, Notes: openStore(t, dir)})
	hb := startLateHub(t, board, openStore(t, dir))
	a.OpenSession(t, "s1")
	a.askAndGiveUp(t)
	card := hubCard(t, hb, NoteNextPrompt)

	a.bridge.Drain(errShutdown, 5*time.Second)
	assert.Equal(t, card.ID, hubCard(t, hb, notes.CardLeft).ID, "the card stays, saying its askbridge stopped")
	_, err := hb.ProgressBy(card.ID, 0, []permission.Answer{{Labels: []string{"Redis"}}}, permissiontest.InProcess(""))
	require.NoError(t, err)
	waitFor(t, "the hub kept the answer for the next prompt", func() bool { return storeHolds(dir) })

	b := newBridgeHarness(t, Options{Notes: openStore(t, dir)})
	got := loadAndPrompt(t, b, "s1", "go on")
	require.Len(t, got, 2)
	assert.Contains(t, got[0], "ask_user_question call had ended")
	assert.Contains(t, got[0], `"Which database?"="Redis"`)
	assert.Equal(t, "go on", got[1])
	assert.Equal(t, []string{"again"}, b.Prompt(t, "p2", "s1", "again"), "delivered once")
}
