package hub

import (
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route"
)

// The reporter says in its route's Env that it hears what askbridge
// learns of itself (route.Env.Hear), where the proxy once asserted its
// type to find it: what it hears reaches the hub's cards.
func TestTheReporterSaysItHearsWhereSetsComeFrom(t *testing.T) {
	path := socket(t)
	h, hb, _ := startHub(t, path)
	board := permission.NewBoard()
	env := &route.Env{Ctx: t.Context(), Board: board, Command: []string{"claude-agent-acp"}, Logger: slog.New(slog.DiscardHandler)}
	set, err := route.Start(env, []route.Route{Route{Socket: path}})
	require.NoError(t, err)
	defer set.Close()
	require.Len(t, env.Hear, 1, "the reporter hears")
	env.Hear[0](func(o *permission.Origin) { o.Agent, o.Sessions = "Claude Code", map[string]string{"s": "/src/api"} })

	ask(board, "s", "Which?")
	id := waitPending(t, hb, 1)[0].ID
	require.Eventually(t, func() bool {
		inst, cwd := h.origin(id)
		return inst != nil && inst.Agent == "Claude Code" && cwd == "/src/api"
	}, 5*time.Second, 10*time.Millisecond)
}
