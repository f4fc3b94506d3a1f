//go:build live

package live

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askbridge/askbridge/live/harness"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A reason given with "Deny…" reaches Claude's next request even when a
// new askbridge serves that prompt, as acpx 0.1.15 starts one for every
// `acpx prompt` (initialize, then session/load): the first askbridge and
// Claude deny at the desk; a second askbridge, with a second Claude in the
// same home, loads the session and gets the prompt. Before, the reason
// lived in the first askbridge's memory and the model never read it.
func TestClaudeDenialsReasonReachesTheNextAskbridge(t *testing.T) {
	const reason = "not here; write it under archive/ instead"
	m := model(t, "Bash", bashCall)
	addr := freeAddr(t)
	first := harness.Start(t, harness.Claude, harness.Options{ModelURL: m.URL,
		Wrap: harness.Askbridge(askbridge(t), "--log-level=debug", "--approvals", "mirror", "--desk", addr),
		TTY:  true, Client: (&stalledEditor{}).client()})
	deskScreens.Store(addr, first.Terminal)
	require.NoError(t, os.MkdirAll(filepath.Join(first.Home, ".claude"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(first.Home, ".claude", "settings.json"), []byte(`{"permissions":{"defaultMode":"default"}}`), 0o600))

	denied := make(chan error, 1)
	go func() {
		for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			body, err := deskCall(addr, "GET", "/question", nil)
			if err != nil || !strings.Contains(string(body), `"kind":"approval"`) {
				continue
			}
			id := between(string(body), `"id":"`, `"`)
			_, err = deskCall(addr, "POST", "/question/"+id+"/reply", map[string]any{"answers": [][]string{{rejectName(body)}}, "reason": reason})
			denied <- err
			return
		}
		denied <- os.ErrDeadlineExceeded
	}()
	session, stop, err := first.Turn(harness.NoFeatures, "Write the marker file.")
	require.NoError(t, err)
	assert.Equal(t, "end_turn", stop)
	require.NoError(t, <-denied)
	notes, _ := filepath.Glob(filepath.Join(first.Home, ".local/state/askbridge/notes/*/*.json"))
	assert.Len(t, notes, 1, "the reason waits in the state folder")

	// The next prompt, served by a new askbridge and a new Claude in the
	// same home (its sessions and askbridge's state folder).
	second := harness.Start(t, harness.Claude, harness.Options{ModelURL: m.URL,
		Wrap:   harness.Askbridge(askbridge(t), "--log-level=debug"),
		Client: (&stalledEditor{}).client(),
		Env:    []string{"HOME=" + first.Home, "CLAUDE_CONFIG_DIR=" + filepath.Join(first.Home, ".claude")}})
	_, err = second.Initialize(harness.NoFeatures)
	require.NoError(t, err)
	_, err = second.Call("session/load", map[string]any{"sessionId": session, "cwd": first.Home, "mcpServers": []any{}})
	require.NoError(t, err, "claude-agent-acp loads the session: %s", second.Stderr())
	before := len(m.Requests())
	stop, err = second.Prompt(session, "Go on.")
	require.NoError(t, err)
	assert.Equal(t, "end_turn", stop)
	var got bool
	for _, q := range m.Requests()[before:] {
		got = got || strings.Contains(string(q.Body), "write it under archive/ instead")
	}
	assert.True(t, got, "the model's next request, through the second askbridge, reads the reason")
	notes, _ = filepath.Glob(filepath.Join(first.Home, ".local/state/askbridge/notes/*/*.json"))
	assert.Empty(t, notes, "delivered, then removed")
}
