package proxy

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

// The desk's card of a set says what the agent said and planned before it
// asked that set; a set asked with nothing said says nothing.
func TestASetsOriginCarriesWhatTheAgentSaidBeforeIt(t *testing.T) {
	board := permission.NewBoard()
	describeSelf(board, []string{"claude-agent-acp"})
	q := []permission.Question{{Question: "Which?", Header: "H", Options: []permission.Option{{Label: "a"}, {Label: "b"}}}}
	said := &permission.Context{Words: "I will remove the build folder.", Plan: []permission.PlanEntry{{Content: "Clean", Status: "in_progress"}}}
	tk := board.Open(permission.Request{SessionID: "s1", Questions: q, Context: said})
	p, _ := board.Get(tk.ID)
	inst := p.Origin
	require.NotNil(t, inst.Context)
	assert.Equal(t, *said, *inst.Context)

	other := board.Open(permission.Request{SessionID: "s1", Questions: q})
	p, _ = board.Get(other.ID)
	inst = p.Origin
	assert.Nil(t, inst.Context)
}
