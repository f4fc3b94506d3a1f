//go:build live

package live

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/live/harness"
	"github.com/askbridge/askbridge/testkit/fakemodel"
)

// The real Claude's modes are read and set through askbridge, and its
// card says what it wrote before it asked (issue 49): a paired device
// switches the session from auto to the mode that asks ("default") with
// its session alone, askbridge sends session/set_mode, Claude accepts and
// the editor is told who switched; back to auto without a passkey is
// refused (403, presence). The question's card carries Claude's words.
func TestClaudesModeIsSetFromTheDeskAndItsWordsAreOnTheCard(t *testing.T) {
	const say = "Before I write the migration I need to know which database the service should use."
	m, err := fakemodel.Start(fakemodel.Script{Tool: harness.Claude.Tool, Calls: []json.RawMessage{json.RawMessage(dbQuestion)}, Say: say}, nil)
	require.NoError(t, err)
	t.Cleanup(m.Close)
	r, addr := claudeAtDesk(t, m.URL)
	type seen struct {
		instance      json.RawMessage
		toAsk, toAuto error
	}
	got := make(chan seen, 1)
	go onFirstCard(addr, func(id string, instance json.RawMessage) {
		path := "/question/" + id + "/mode"
		s := seen{instance: instance}
		_, s.toAsk = deskCall(addr, "POST", path, map[string]any{"mode": "default"})
		_, s.toAuto = deskCall(addr, "POST", path, map[string]any{"mode": "auto"})
		deskCall(addr, "POST", "/question/"+id+"/reply", map[string]any{"answers": [][]string{{"Postgres"}}})
		got <- s
	}, func() { got <- seen{} })
	_, stop, err := r.Turn(harness.NoFeatures, "Ask me which database.")
	require.NoError(t, err)
	assert.Equal(t, "end_turn", stop)

	s := <-got
	require.NotNil(t, s.instance, "no question reached the desk")
	t.Logf("the card's origin: %s", s.instance)
	var origin struct {
		Mode struct {
			ID        string `json:"id"`
			Available []struct {
				ID string `json:"id"`
			} `json:"available"`
		} `json:"mode"`
		Context struct {
			Words string `json:"words"`
		} `json:"context"`
	}
	require.NoError(t, json.Unmarshal(s.instance, &origin))
	assert.Equal(t, "auto", origin.Mode.ID)
	assert.GreaterOrEqual(t, len(origin.Mode.Available), 2, "Claude's modes are read from session/new")
	assert.Contains(t, origin.Context.Words, say, "the card says what Claude wrote before it asked")

	require.NoError(t, s.toAsk, "switching to the mode that asks takes the device alone")
	require.Error(t, s.toAuto, "back to auto without a passkey")
	assert.Contains(t, s.toAuto.Error(), "403")
	assert.Contains(t, s.toAuto.Error(), `"presence":true`)
	assert.Contains(t, r.Stderr(), "switched the session's mode on the user's behalf", "Claude accepted session/set_mode")
	told := false
	for _, l := range r.Lines() {
		if l.Dir == harness.FromAgent && strings.Contains(string(l.Msg), "the session's mode was switched to") {
			told = true
		}
	}
	assert.True(t, told, "the editor is told who switched")
}
