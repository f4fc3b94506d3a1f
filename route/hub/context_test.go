package hub

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

// What the agent said and planned before it asked reaches the hub in the
// same line as the set, and the hub's card (the set's origin) carries it;
// the askbridge's listing (GET /instance) does not.
func TestTheHubsCardCarriesTheAgentsWordsAndPlan(t *testing.T) {
	path := socket(t)
	h, hb, _ := startHub(t, path)
	board := permission.NewBoard()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	Report(ctx, board, path, Instance{Agent: "Claude Code", PID: os.Getpid(), Host: "devbox", CWD: "/p"}, nil)
	said := &permission.Context{Words: "The build folder is stale; I will remove it.",
		Plan: []permission.PlanEntry{{Content: "Clean the build folder", Priority: "medium", Status: "in_progress"}}}
	board.Open(permission.Request{SessionID: "s", Round: 1, Context: said, Questions: []permission.Question{
		{Question: "Remove build?", Header: "H", Options: []permission.Option{{Label: "a"}, {Label: "b"}}}}})
	id := waitPending(t, hb, 1)[0].ID
	inst, _ := h.origin(id)
	got := inst.Context
	require.NotNil(t, got, "the set's words came with it: no hello in between")
	assert.Equal(t, *said, *got)
	for _, i := range h.Instances() {
		assert.Nil(t, i.Context)
	}
}
