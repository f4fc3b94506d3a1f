package hub

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/internal/decisions"
	"github.com/askbridge/askbridge/permission"
)

// A switch of a session's mode made on the hub's page reaches the
// askbridge that asked, as a switch by the hub on the device's behalf:
// one that asks less only with the user's presence, which the hub's page
// alone can check; each is kept in the decisions log.
func TestAModeSwitchAtTheHubReachesItsAskbridge(t *testing.T) {
	logPath := filepath.Join(logFolder(t), "decisions.jsonl")
	path := socket(t)
	h, hb, _ := startHub(t, path)
	l, err := decisions.Open(logPath, 1<<20)
	require.NoError(t, err)
	h.Record(l)

	board := permission.NewBoard()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	rep := Report(ctx, board, path, Instance{Agent: "Claude Agent", PID: os.Getpid(), Host: "here", CWD: "/src/api"}, nil)
	rep.Update(func(i *Instance) {
		i.Modes = map[string]SessionMode{"s1": {ID: "auto", Name: "Auto", Asks: 1, Available: []ModeOption{
			{ID: "default", Name: "Manual", Asks: 2}, {ID: "auto", Name: "Auto", Asks: 1}, {ID: "bypassPermissions", Name: "Bypass permissions", Asks: 0}}}}
	})
	var mu sync.Mutex
	var switched []string
	board.HandleModes(func(set permission.Pending, mode string, by permission.By) error {
		mu.Lock()
		defer mu.Unlock()
		switched = append(switched, set.SessionID+" "+mode+" by "+by.Name+" "+string(by.Source)+" "+by.Proof.String())
		return nil
	})
	ask(board, "s1", "Which?")
	hubSet := waitPending(t, hb, 1)[0]
	require.Eventually(t, func() bool { inst, _ := h.origin(hubSet.ID); return inst.Mode != nil }, 5*time.Second, 10*time.Millisecond)

	phone := permission.By{Device: "d1", Name: "Pixel 8", Route: permission.RoutePage, Proof: permission.ProofDevice}
	assert.ErrorIs(t, hb.RequestMode(hubSet.ID, "bypassPermissions", phone), permission.ErrModeNeedsPresence, "refused at the hub")
	require.NoError(t, hb.RequestMode(hubSet.ID, "default", phone))
	phone.Proof |= permission.ProofPresence
	require.NoError(t, hb.RequestMode(hubSet.ID, "bypassPermissions", phone))

	require.Eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(switched) == 2 }, 5*time.Second, 10*time.Millisecond)
	assert.Equal(t, "s1 default by Pixel 8 hub a paired device", switched[0])
	assert.Equal(t, "s1 bypassPermissions by Pixel 8 hub a paired device and your presence (a passkey)", switched[1])

	records, err := decisions.Read(logPath)
	require.NoError(t, err)
	require.Len(t, records, 2)
	assert.Equal(t, permission.KindMode, records[0].Kind)
	assert.Equal(t, "Manual", records[0].Answer)
	assert.Equal(t, "switch the session's mode from Auto", records[0].Asked)
	assert.Equal(t, "with the device's passkey", records[1].Reason)
}
