//go:build live

package live

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askbridge/askbridge/live/harness"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue 47's run, as a new user makes it: the real acpx 0.1.15 and the
// real Claude through askbridge, approvals sent to the hub (--approvals
// desk --hub), a Bash command denied there with a reason, then the next
// `acpx prompt` in the same acpx session. acpx 0.1.15 starts a new agent
// command for every prompt (initialize, then session/load), so a new
// askbridge serves that prompt: the reason reaches the model's request
// only through the notes store (before it, it died with the first
// askbridge).
func TestOldAcpxDenialsReasonReachesTheNextPrompt(t *testing.T) {
	const reason = "not in this folder; write it under archive/ instead"
	acpx := oldAcpx(t)
	h := startLiveHub(t)
	m := model(t, "Bash", bashCall)
	agent := strings.Join(append(harness.Askbridge(askbridge(t), "--log-level=debug", "--approvals", "desk", "--hub="+h.sock),
		harness.Claude.Argv(harness.LiveDir())...), " ")
	// sessions new, the first prompt, then the second once the test has
	// typed Enter: each acpx command in the one session of this folder.
	// The first prompt's session/load fails ("Resource not found": Claude
	// keeps no session that has no message yet) and acpx makes a new one,
	// the session the second prompt loads.
	script := `acpx=$1 agent=$2
run() { node "$acpx" --agent "$agent" --format text --timeout 120 --ttl 5 "$@"; }
run sessions new && run prompt "Write the marker file."
echo "first prompt exited $?"; read next
run prompt "Go on."`
	tm := harness.Tmux(t, claudeThatAsks(), m.URL, []string{"sh", "-c", script, "sh", acpx, agent})

	require.NoError(t, h.deny(reason, 90*time.Second), "the terminal shows:\n%s", tm.Screen())
	tm.WaitFor("first prompt exited", 1, 90*time.Second)
	_, err := os.Stat(filepath.Join(tm.Home, "ran.txt"))
	assert.True(t, os.IsNotExist(err), "the command did not run")
	before := len(m.Requests())
	for _, q := range m.Requests() {
		require.NotContains(t, string(q.Body), "under archive/ instead", "ACP's permission response has no field for a reason: it waits for the next prompt")
	}
	notes, _ := filepath.Glob(filepath.Join(tm.Home, ".local/state/askbridge/notes/*/*.json"))
	assert.Len(t, notes, 1, "the reason waits in the state folder")

	tm.Type("Enter")
	status := tm.Exited(120 * time.Second)
	t.Logf("the terminal shows:\n%s", tm.Screen())
	assert.Equal(t, "[command exited 0]", status)
	second := tm.Screen()
	second = second[strings.Index(second, "first prompt exited"):]
	assert.Contains(t, second, "[client] initialize", "acpx started the agent command, a new askbridge, for the second prompt")
	assert.Contains(t, second, "[client] session/load")
	var got, loaded bool
	for _, q := range m.Requests()[before:] {
		body := string(q.Body)
		got = got || strings.Contains(body, "under archive/ instead")
		// The turn's request, not a title's: the loaded session's history
		// before the reason and the prompt.
		loaded = loaded || strings.Contains(body, "under archive/ instead") && strings.Contains(body, "Write the marker file.") && strings.Contains(body, "Go on.")
	}
	assert.True(t, got, "the model's requests for the second prompt, through a new askbridge, read the reason")
	assert.True(t, loaded, "the second prompt's turn, in the session the first one made, reads it")
	notes, _ = filepath.Glob(filepath.Join(tm.Home, ".local/state/askbridge/notes/*/*.json"))
	assert.Empty(t, notes, "delivered, then removed")
}

// claudeThatAsks is Claude with {"permissions":{"defaultMode":"default"}}
// in its settings: with a fresh settings folder Claude Code starts in auto
// mode and runs the command without asking anyone.
func claudeThatAsks() harness.Agent {
	a := harness.Claude
	a.Setup = func(home, url string) ([]string, error) {
		dir := filepath.Join(home, ".claude")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(dir, "settings.json"), []byte(`{"permissions":{"defaultMode":"default"}}`), 0o600); err != nil {
			return nil, err
		}
		return harness.Claude.Setup(home, url)
	}
	return a
}

// deny waits for the one approval at the hub and picks its reject option
// with reason, as the page's "Deny…" does.
func (h *liveHub) deny(reason string, timeout time.Duration) error {
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		var listing json.RawMessage
		if _, err := h.call("GET", "question", nil, &listing); err != nil || !strings.Contains(string(listing), `"kind":"approval"`) {
			continue
		}
		id := between(string(listing), `"id":"`, `"`)
		_, err := h.call("POST", "question/"+id+"/reply", map[string]any{"answers": [][]string{{rejectName(listing)}}, "reason": reason}, nil)
		return err
	}
	return fmt.Errorf("no approval reached the hub in %s", timeout)
}
