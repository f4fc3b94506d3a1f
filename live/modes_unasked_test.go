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
	r, addr := claudeAtDesk(t, m.URL)
	card := make(chan []byte, 1)
	go onFirstCard(addr, func(id string, instance json.RawMessage) {
		card <- instance
		deskCall(addr, "POST", "/question/"+id+"/reply", map[string]any{"answers": [][]string{{"Postgres"}}})
	}, func() { card <- nil })
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

// claudeAtDesk starts the real Claude through askbridge with --approvals
// mirror and a desk, the editor one that leaves permission requests
// unanswered, and returns the run and the desk's address.
func claudeAtDesk(t *testing.T, modelURL string) (*harness.Run, string) {
	addr := freeAddr(t)
	editor := &stalledEditor{}
	r := harness.Start(t, harness.Claude, harness.Options{ModelURL: modelURL,
		Wrap: harness.Askbridge(askbridge(t), "--log-level=debug", "--approvals", "mirror", "--desk", addr), TTY: true,
		Client: editor.client()})
	deskScreens.Store(addr, r.Terminal)
	return r, addr
}

// onFirstCard waits up to 90 s for the desk at addr to list a set, and
// calls do with the first one's id and origin; none in time calls none.
func onFirstCard(addr string, do func(id string, instance json.RawMessage), none func()) {
	for deadline := time.Now().Add(90 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		body, err := deskCall(addr, "GET", "/question", nil)
		var list []struct {
			ID       string          `json:"id"`
			Instance json.RawMessage `json:"instance"`
		}
		if err == nil && json.Unmarshal(body, &list) == nil && len(list) > 0 {
			do(list[0].ID, list[0].Instance)
			return
		}
	}
	none()
}
