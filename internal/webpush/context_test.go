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
