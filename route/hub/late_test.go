package hub

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/internal/notes"
	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/permission/permissiontest"
)

// lateHub is a hub keeping late answers in a notes store of its own, on
// the machine the test's askbridges say they are on ("here").
func lateHub(t *testing.T, path string) (*Hub, *permission.Board, *notes.Store) {
	h, hb, _ := startHub(t, path)
	store, err := notes.Open(filepath.Join(t.TempDir(), "notes"), notes.Limits{})
	require.NoError(t, err)
	h.KeepLate(store)
	h.late.mu.Lock()
	h.late.host = "here"
	h.late.mu.Unlock()
	return h, hb, store
}

// askLate asks Q? in session s1 and has the agent stop waiting for it, as
// the bridge notes it; it returns the set and its card on the hub.
func askLate(t *testing.T, b, hb *permission.Board) (*permission.Ticket, permission.Pending) {
	t.Helper()
	tk := ask(b, "s1", "Q?")
	waitPending(t, hb, 1)
	require.NoError(t, b.Note(tk.ID, notes.CardNextPrompt))
	return tk, waitNote(t, hb, notes.CardNextPrompt)
}

// waitNote waits for the hub's one pending card to say note.
func waitNote(t *testing.T, hb *permission.Board, note string) permission.Pending {
	t.Helper()
	var p permission.Pending
	require.Eventually(t, func() bool {
		l := hb.List()
		if len(l) == 1 {
			p = l[0]
		}
		return len(l) == 1 && l[0].Note == note
	}, 5*time.Second, 10*time.Millisecond, "the hub's card says %q", note)
	return p
}

func answerAtHub(t *testing.T, hb *permission.Board, id, label string) {
	t.Helper()
	_, err := hb.ProgressBy(id, 0, []permission.Answer{{Labels: []string{label}}}, permissiontest.InProcess(""))
	require.NoError(t, err)
}

// waitTaken waits for session's notes in the store.
func waitTaken(t *testing.T, store *notes.Store, session string) []notes.Note {
	t.Helper()
	var got []notes.Note
	require.Eventually(t, func() bool { got = store.Take(session); return len(got) > 0 }, 5*time.Second, 10*time.Millisecond, "a note for %s", session)
	return got
}

// A set answerable late whose askbridge goes (killed, its link gone) stays
// on the hub saying so; answered there, its answer is in the store for
// the session's next prompt, in the words the askbridge would have
// written. Before, the hub cancelled it with the askbridge's other sets.
func TestALateSetStaysOnTheHubAfterItsAskbridgeWent(t *testing.T) {
	path := socket(t)
	_, hb, store := lateHub(t, path)
	b, gone := report(t, path, "/src")
	tk, _ := askLate(t, b, hb)
	gone()
	p := waitNote(t, hb, notes.CardLeft)
	asked, _ := b.Get(tk.ID)
	answerAtHub(t, hb, p.ID, "b")
	got := waitTaken(t, store, "s1")
	require.Len(t, got, 1)
	assert.Equal(t, notes.KindLate, got[0].Kind)
	assert.Equal(t, notes.LateLine(asked.Asked, `"Q?"="b"`), got[0].Text)
}

// An askbridge that stops hands its late set over: it ends the set noted
// notes.CardLeft (adapter's cancelLate), and the hub keeps the card rather
// than ending it as there. A normal set of the same askbridge is still
// cancelled when it leaves.
func TestAStoppingAskbridgeHandsItsLateSetOver(t *testing.T) {
	path := socket(t)
	_, hb, store := lateHub(t, path)
	b, leave := report(t, path, "/src")
	tk, _ := askLate(t, b, hb)
	require.NoError(t, b.Note(tk.ID, notes.CardLeft))
	require.NoError(t, b.Withdraw(tk.ID, "askbridge stops", permission.BySelf(permission.SourceClient)))
	normal := ask(b, "s1", "Normal?")
	waitPending(t, hb, 2)
	leave()
	p := waitNote(t, hb, notes.CardLeft)
	assert.Equal(t, "Q?", p.Questions[0].Question, "the normal set was cancelled, the late one kept")
	sets, _ := hb.History("a1/s1")
	require.Len(t, sets, 2)
	for _, s := range sets {
		if s.Questions[0].Question == "Normal?" {
			assert.Equal(t, permission.StateCancelled, s.State)
		}
	}
	answerAtHub(t, hb, p.ID, "a")
	assert.Contains(t, waitTaken(t, store, "s1")[0].Text, `"Q?"="a"`)
	assert.Equal(t, permission.StatePending, t1Pending(b, normal).State, "the hub sent nothing back")
}

// A late set is cancelled as before when its answer could not reach the
// session: an askbridge on another machine (its store is not the hub's),
// a secret question (never written), or no store at all.
func TestALateSetTheHubCannotDeliverIsCancelled(t *testing.T) {
	cases := map[string]func(h *Hub) (Instance, []permission.Question){
		"another machine": func(*Hub) (Instance, []permission.Question) {
			return Instance{Agent: "x", PID: 1, Host: "elsewhere"}, nil
		},
		"a secret": func(*Hub) (Instance, []permission.Question) {
			return Instance{Agent: "x", PID: 1, Host: "here"}, []permission.Question{{Question: "Token?", Header: "T", Kind: permission.Secret,
				Options: []permission.Option{{Label: "a"}, {Label: "b"}}}}
		},
		"no store": func(h *Hub) (Instance, []permission.Question) {
			h.late.mu.Lock()
			h.late.store = nil
			h.late.mu.Unlock()
			return Instance{Agent: "x", PID: 1, Host: "here"}, nil
		},
	}
	for name, setup := range cases {
		t.Run(name, func(t *testing.T) {
			path := socket(t)
			h, hb, _ := lateHub(t, path)
			inst, qs := setup(h)
			b, leave := reportAs(t, path, inst)
			var tk *permission.Ticket
			if qs == nil {
				tk = ask(b, "s1", "Q?")
			} else {
				tk = b.Open(permission.Request{SessionID: "s1", Round: 1, Questions: qs})
			}
			waitPending(t, hb, 1)
			require.NoError(t, b.Note(tk.ID, notes.CardNextPrompt))
			waitNote(t, hb, notes.CardNextPrompt)
			leave()
			waitPending(t, hb, 0)
		})
	}
}

// reportAs is report with the askbridge saying inst of itself.
func reportAs(t *testing.T, path string, inst Instance) (*permission.Board, context.CancelFunc) {
	board := permission.NewBoard()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	Report(ctx, board, path, inst, nil)
	return board, cancel
}

// A card kept after its askbridge left switches no mode: there is no agent
// to send it to, and the decisions log would keep a switch never made.
func TestALeftCardSwitchesNoMode(t *testing.T) {
	path := socket(t)
	h, hb, _ := lateHub(t, path)
	b := permission.NewBoard()
	ctx, gone := context.WithCancel(context.Background())
	t.Cleanup(gone)
	rep := Report(ctx, b, path, Instance{Agent: "scripted", PID: os.Getpid(), Host: "here", CWD: "/src"}, nil)
	rep.Update(func(i *Instance) {
		i.Modes = map[string]SessionMode{"s1": {ID: "auto", Asks: 1, Available: []ModeOption{{ID: "default", Asks: 2}, {ID: "auto", Asks: 1}}}}
	})
	askLate(t, b, hb)
	require.Eventually(t, func() bool { inst, _ := h.origin(hb.List()[0].ID); return inst.Mode != nil }, 5*time.Second, 10*time.Millisecond)
	gone()
	p := waitNote(t, hb, notes.CardLeft)
	by := permission.By{Device: "d1", Name: "Pixel 8", Route: permission.RoutePage, Proof: permission.ProofDevice | permission.ProofPresence}
	assert.ErrorIs(t, hb.RequestMode(p.ID, "default", by), permission.ErrNoModes)
}
