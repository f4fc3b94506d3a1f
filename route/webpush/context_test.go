package webpush

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

// A push carries the question only: what the agent said and planned before
// it asked stays on the card, which the page fetches when it opens.
func TestAPushCarriesNotTheAgentsWords(t *testing.T) {
	p := &Pusher{}
	m := p.asked(permission.Pending{ID: "q1", Kind: permission.KindQuestion,
		Asking:  []permission.Asked{{Question: permission.Question{Header: "DB", Question: "Which database?", Options: []permission.Option{{Label: "Postgres"}, {Label: "SQLite"}}}}},
		Context: &permission.Context{Words: "I read your notes on the ledger", Plan: []permission.PlanEntry{{Content: "Pick the store"}}}})
	b, err := json.Marshal(m)
	require.NoError(t, err)
	assert.Contains(t, string(b), "Which database?")
	assert.NotContains(t, string(b), "ledger")
	assert.NotContains(t, string(b), "Pick the store")
}

// With --push-content none a push says only that something waits: no
// question, command, choice, agent or folder leaves for the push service.
func TestABarePushCarriesNoWordOfTheSet(t *testing.T) {
	p := &Pusher{opts: Options{Bare: true, Where: func(string) string { return "Claude Code · /home/ann/ledger" }}}
	tc := json.RawMessage(`{"title":"rm -rf build","rawInput":{"command":"rm -rf build"}}`)
	for _, s := range []permission.Pending{
		{ID: "q1", Kind: permission.KindQuestion, Asking: []permission.Asked{{Question: permission.Question{Header: "DB", Question: "Which database?", Options: []permission.Option{{Label: "Postgres"}}}}}},
		{ID: "a1", Kind: permission.KindApproval, Approval: &permission.Approval{ToolCall: tc}},
	} {
		m := p.asked(s)
		b, err := json.Marshal(m)
		require.NoError(t, err)
		for _, word := range []string{"database", "Postgres", "rm -rf", "ledger", "Claude"} {
			assert.NotContains(t, string(b), word)
		}
		assert.Equal(t, s.ID, m.ID, "the page opens the card by its id")
		assert.Equal(t, s.Kind, m.Kind)
	}
}
