//go:build live

package live

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/live/harness"
)

// Claude Code on a fresh settings folder starts in its auto mode, where it
// runs tools without asking. Through askbridge with --approvals mirror the
// mode is read from session/new and said at once: in the log, on the
// desk's card (here a question's, asked in that mode), and to the editor
// as a line of agent text at the prompt.
func TestClaudeInAutoModeIsSaidOnTheCardAndInTheLog(t *testing.T) {
	m := model(t, harness.Claude.Tool, dbQuestion)
	addr := freeAddr(t)
	editor := &stalledEditor{}
	r := harness.Start(t, harness.Claude, harness.Options{ModelURL: m.URL,
		Wrap: harness.Askbridge(askbridge(t), "--log-level=debug", "--approvals", "mirror", "--desk", addr), TTY: true,
		Client: editor.client()})
	deskScreens.Store(addr, r.Terminal)
	card := make(chan []byte, 1)
	go func() {
		for deadline := time.Now().Add(90 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			body, err := deskCall(addr, "GET", "/question", nil)
			var list []struct {
				ID       string          `json:"id"`
				Instance json.RawMessage `json:"instance"`
			}
			if err != nil || json.Unmarshal(body, &list) != nil || len(list) == 0 {
				continue
			}
			card <- list[0].Instance
			deskCall(addr, "POST", "/question/"+list[0].ID+"/reply", map[string]any{"answers": [][]string{{"Postgres"}}})
			return
		}
		card <- nil
	}()
	_, stop, err := r.Turn(harness.NoFeatures, "Ask me which database.")
	require.NoError(t, err)
	assert.Equal(t, "end_turn", stop)

	inst := <-card
	require.NotNil(t, inst, "no question reached the desk")
	var origin struct {
		Mode struct {
			ID, Name, Unasked string
		} `json:"mode"`
	}
	require.NoError(t, json.Unmarshal(inst, &origin))
	t.Logf("the card's origin: %s", inst)
	assert.Equal(t, "auto", origin.Mode.ID, "Claude reports its auto mode in session/new")
	assert.Contains(t, origin.Mode.Unasked, "decides itself which tool calls to ask about")
	assert.Contains(t, r.Stderr(), "decides itself which tool calls to ask about", "the log warns")

	said := false
	for _, l := range r.Lines() {
		if l.Dir == harness.FromAgent && strings.Contains(string(l.Msg), "askbridge: the session is in the agent") {
			said = true
		}
	}
	assert.True(t, said, "the editor is told, as agent text")
}
