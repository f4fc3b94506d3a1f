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

// "Deny…" with a reason at the desk, with Claude Code (claude-agent-acp):
// the agent gets its reject option (the command does not run), the editor
// is told in the session, and the model reads the reason with the user's
// next prompt, which askbridge starts with it (ACP's permission response
// has no field for a reason, and claude-agent-acp's deny says only "User
// refused permission to run tool").
func TestClaudeDenialWithAReasonReachesTheModel(t *testing.T) {
	const reason = "do not write files here; put it in archive/ instead"
	m := model(t, "Bash", bashCall)
	addr := freeAddr(t)
	perms := &stalledEditor{}
	r := harness.Start(t, harness.Claude, harness.Options{ModelURL: m.URL,
		Wrap: harness.Askbridge(askbridge(t), "--log-level=debug", "--approvals", "mirror", "--desk", addr),
		TTY:  true, Client: perms.client()})
	deskScreens.Store(addr, r.Terminal)
	require.NoError(t, os.MkdirAll(filepath.Join(r.Home, ".claude"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(r.Home, ".claude", "settings.json"), []byte(`{"permissions":{"defaultMode":"default"}}`), 0o600))

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
	session, stop, err := r.Turn(harness.NoFeatures, "Write the marker file.")
	require.NoError(t, err)
	assert.Equal(t, "end_turn", stop)
	require.NoError(t, <-denied)
	_, statErr := os.Stat(filepath.Join(r.Home, "ran.txt"))
	assert.True(t, os.IsNotExist(statErr), "the command did not run")

	before := len(m.Requests())
	stop, err = r.Prompt(session, "Go on.")
	require.NoError(t, err)
	assert.Equal(t, "end_turn", stop)
	var got bool
	for _, q := range m.Requests()[before:] {
		if strings.Contains(string(q.Body), "put it in archive/ instead") {
			got = true
		}
	}
	assert.True(t, got, "the model's next turn reads the reason")
	var told bool
	for _, l := range r.Lines() {
		if strings.Contains(string(l.Msg), "session/update") && strings.Contains(string(l.Msg), "you denied") {
			told = true
		}
	}
	assert.True(t, told, "the editor was told in the session")
}

// rejectName is the name of the first reject_once option a desk listing
// shows.
func rejectName(listing []byte) string {
	s := string(listing)
	i := strings.Index(s, `"kind":"reject_once"`)
	if i < 0 {
		return "Reject"
	}
	head := s[:i]
	j := strings.LastIndex(head, `"name":"`)
	return between(head[j:], `"name":"`, `"`)
}

func between(s, start, end string) string {
	_, rest, ok := strings.Cut(s, start)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, end)
	return v
}
