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

// The inbox names the session's mode, as every card does, and says when
// the agent runs tools unasked in it.
func TestTheInboxSaysTheSessionsMode(t *testing.T) {
	var s Set
	require.NoError(t, json.Unmarshal([]byte(`{"id":"q1","kind":"question","questions":[{"question":"Which?","header":"H"}],
		"instance":{"agent":"claude","mode":{"id":"default","name":"Default"}}}`), &s))
	ib := &inbox{}
	assert.Contains(t, ib.heading(s), "· Default mode")
	s.Instance.Mode.Unasked = `the session is in the agent's "Auto" mode: it decides itself which tool calls to ask about`
	assert.Contains(t, ib.heading(s), "⚠ the session is in the agent's \"Auto\" mode")
}
