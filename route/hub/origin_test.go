package hub

import (
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

// The page shows a folder under the askbridge's home as "~/…": the home
// the askbridge said in its hello reaches the page with each set, beside
// the session's own folder.
func TestOriginCarriesTheAskbridgesHome(t *testing.T) {
	path := socket(t)
	h, hb, _ := startHub(t, path)
	board := permission.NewBoard()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	rep := Report(ctx, board, path, Instance{Agent: "Claude Code", PID: os.Getpid(), Host: "devbox", CWD: "/home/ann", Home: "/home/ann"}, nil)
	rep.Update(func(i *Instance) { i.Sessions = map[string]string{"s": "/home/ann/src/api"} })
	ask(board, "s", "Q?")
	id := waitPending(t, hb, 1)[0].ID
	var cwd string
	var inst *Instance
	require.Eventually(t, func() bool { inst, cwd = h.origin(id); return cwd == "/home/ann/src/api" }, 5*time.Second, 10*time.Millisecond)
	b, err := json.Marshal(inst)
	require.NoError(t, err)
	var wire map[string]any
	require.NoError(t, json.Unmarshal(b, &wire))
	assert.Equal(t, "/home/ann", wire["home"])
	assert.Equal(t, "devbox", wire["host"])
	assert.NotContains(t, wire, "sessions", "each set has its own folder; the others' are not shown")
}
