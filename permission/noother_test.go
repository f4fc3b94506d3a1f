package permission

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A question whose asker cannot take typed text offers no Other, and an
// Other sent anyway is no answer.
func TestNoOtherQuestionOffersAndTakesNoOther(t *testing.T) {
	q := Question{Question: "Which?", Header: "H", Options: []Option{{Label: "A"}, {Label: "B"}}, Kind: Fixed}
	var p struct {
		Options []struct{ OptionID string }
	}
	require.NoError(t, json.Unmarshal(Render(Prompt{Q: q, SessionID: "s", ToolCallID: "t", Total: 1}), &p))
	var ids []string
	for _, o := range p.Options {
		ids = append(ids, o.OptionID)
	}
	assert.Equal(t, []string{"A", "B"}, ids)

	_, err := ParseOutcome(q, json.RawMessage(`{"outcome":{"outcome":"selected","optionId":"__other__","_meta":{"customText":"C"}}}`))
	assert.ErrorContains(t, err, "takes no typed answer")
	pick, err := ParseOutcome(q, json.RawMessage(`{"outcome":{"outcome":"selected","optionId":"B"}}`))
	require.NoError(t, err)
	assert.Equal(t, []string{"B"}, pick.Labels)

	q.Kind.Fixed = false
	require.NoError(t, json.Unmarshal(Render(Prompt{Q: q, SessionID: "s", ToolCallID: "t", Total: 1}), &p))
	assert.Equal(t, OtherID, p.Options[len(p.Options)-1].OptionID)
}
