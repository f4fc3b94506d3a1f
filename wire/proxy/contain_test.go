package proxy

import (
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/permission"
)

// An uncontained agent's askbridge tells the desk's and the hub's cards so
// (the page shows Instance.Uncontained on every approval card).
func TestUncontainedAgentIsNamedOnTheCards(t *testing.T) {
	board := permission.NewBoard()
	describeSelf(board, []string{"agent"})
	var hubs permission.Origin
	toHub := func(fn func(*permission.Origin)) { fn(&hubs) }
	exe, err := os.Executable()
	require.NoError(t, err)
	a, err := relay.StartAgent([]string{exe, "-test.run=^$"}, nil, nil) // this test binary, running no test: never contained here
	require.NoError(t, err)
	defer a.Stop(time.Second)

	bridge := adapter.NewBridge(adapter.Options{})
	showContainment(bridge, board.Describe, toHub)(a)
	tk := board.Open(permission.Request{SessionID: "s1", Questions: []permission.Question{{Question: "Run?", Header: "H", Options: []permission.Option{{Label: "a"}, {Label: "b"}}}}})
	p, _ := board.Get(tk.ID)
	assert.Equal(t, "not contained: anything this agent starts can act as you", p.Origin.Uncontained)
	assert.Equal(t, relay.UncontainedWarning, hubs.Uncontained)
}
