package inbox

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

// An approval from an agent that runs outside askbridge's container says
// so in the inbox, where the user decides, as the hub's cards do; a
// question, or a contained agent's approval, does not.
func TestTheInboxSaysAnApprovalsAgentIsNotContained(t *testing.T) {
	var s Set
	require.NoError(t, json.Unmarshal([]byte(`{"id":"q1","kind":"approval","questions":[{"question":"rm -rf build","header":"Approval"}],
		"instance":{"agent":"claude","uncontained":"not contained: anything this agent starts can act as you"}}`), &s))
	ib := &inbox{}
	assert.Contains(t, ib.heading(s), "⚠ not contained: anything this agent starts can act as you")

	s.Instance.Uncontained = ""
	assert.NotContains(t, ib.heading(s), "not contained")

	s.Instance.Uncontained, s.Kind = "not contained: x", permission.KindQuestion
	assert.NotContains(t, ib.heading(s), "not contained", "a question allows nothing")
}
