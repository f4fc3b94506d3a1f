package hubserve

import (
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/internal/pairing"
	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route"
	"github.com/askbridge/askbridge/route/hub"
)

// The hub's page, its inbox and Web Push start from one table, as the
// proxy's desk does, in the order each reads what the one before left:
// the page serves Web Push's API, and a route of the flags' (the
// notifiers') finds the page's address and its API in its Env.
func TestTheHubsRoutesComeFromItsTable(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	board := permission.NewBoard()
	var seen route.Env
	c := Config{Routes: []route.Route{probe{&seen}}}
	env := &route.Env{Ctx: t.Context(), Board: board, Logger: slog.New(slog.DiscardHandler)}
	set, err := route.Start(env, c.table(started{hub: hub.New(board, nil), page: ln, sock: &hub.Listener{}, devices: pairing.Memory(), show: &codeShower{}}))
	require.NoError(t, err)
	defer set.Close()

	assert.Equal(t, []string{"web push", "page", "inbox", "probe"}, set.Names())
	require.NotEmpty(t, env.DeskURL)
	assert.Equal(t, env.DeskURL, seen.DeskURL, "the page left its address for the routes after it")
	require.NotNil(t, seen.Local)

	rec := httptest.NewRecorder()
	seen.Local.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, env.DeskURL+"api/push", nil))
	assert.Equal(t, http.StatusOK, rec.Code, "the page serves Web Push's API: %s", rec.Body)
	assert.Contains(t, rec.Body.String(), "key")
}

// probe is a route of the flags' that keeps what it found in its Env.
type probe struct{ seen *route.Env }

func (probe) Name() string { return "probe" }
func (p probe) Start(env *route.Env) (route.Running, error) {
	*p.seen = *env
	return route.Off(""), nil
}
