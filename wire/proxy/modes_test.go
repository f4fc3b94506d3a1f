package proxy

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/permission"
)

// A set's origin, as the desk's and the hub's cards read it, says its
// session's mode in the agent's words, and what an unasked one means; a
// set of another session says none.
func TestASetsOriginSaysItsSessionsMode(t *testing.T) {
	board := permission.NewBoard()
	describeSelf(board, []string{"claude-agent-acp"})
	var toHub permission.Origin
	showModes(board.Describe, func(fn func(*permission.Origin)) { fn(&toHub) })("s1",
		adapter.SessionMode{ID: "auto", Name: "Auto", Kind: dialect.ModeAutoReview})

	tk := board.Open(permission.Request{SessionID: "s1", Questions: []permission.Question{{Question: "Which?", Header: "H", Options: []permission.Option{{Label: "a"}, {Label: "b"}}}}})
	p, _ := board.Get(tk.ID)
	inst := p.Origin
	mode := inst.Mode
	require.NotNil(t, mode)
	assert.Equal(t, "Auto", mode.Name)
	assert.Contains(t, mode.Unasked, "decides itself which tool calls to ask about")
	assert.Nil(t, inst.Modes, "one set's origin carries its own session's mode only")
	assert.Equal(t, "auto", toHub.Modes["s1"].ID, "the hub is told too")

	other := board.Open(permission.Request{SessionID: "s2", Questions: []permission.Question{{Question: "Which?", Header: "H", Options: []permission.Option{{Label: "a"}, {Label: "b"}}}}})
	p, _ = board.Get(other.ID)
	inst = p.Origin
	assert.Nil(t, inst.Mode)
}
