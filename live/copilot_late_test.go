//go:build live

package live

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/live/harness"
	"github.com/askbridge/askbridge/testkit/fakemodel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Copilot CLI 1.0.102's MCP host ends a tool call after about 180 s. These
// tests ask through askbridge's MCP ask tool with the question on the desk
// only (the client never sees it) and answer there after that time. SLOW:
// each takes about 3.5 minutes, most of it Copilot's wait; -short skips
// them.

// copilotAtTheDesk starts Copilot through askbridge with its questions on
// the desk at the returned address, and opens a session.
func copilotAtTheDesk(t *testing.T, flags ...string) (*harness.Run, *fakemodel.Server, string, string) {
	t.Helper()
	if testing.Short() {
		t.Skip("slow: waits past Copilot's 180 s tool timeout")
	}
	m := model(t, harness.Copilot.Tool, dbQuestion)
	addr := freeAddr(t)
	flags = append([]string{"--log-level=debug", "--min-answer-time=0", "--desk", addr, "--questions", "desk"}, flags...)
	r := harness.Start(t, harness.Copilot, harness.Options{ModelURL: m.URL, TTY: true, Timeout: 5 * time.Minute,
		Wrap: harness.Askbridge(askbridge(t), flags...)})
	deskScreens.Store(addr, r.Terminal)
	_, err := r.Initialize(harness.NoFeatures)
	require.NoError(t, err)
	res, err := r.Call("session/new", map[string]any{"cwd": r.Home, "mcpServers": []any{}})
	require.NoError(t, err)
	var created struct{ SessionID string }
	require.NoError(t, json.Unmarshal(res, &created))
	return r, m, addr, created.SessionID
}

// pendingAtTheDesk is the one set the desk lists, once it lists one.
func pendingAtTheDesk(addr string) (id, note string, err error) {
	var pending []struct {
		ID   string `json:"id"`
		Note string `json:"note"`
	}
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		listed, err := deskCall(addr, "GET", "/question", nil)
		if err == nil && json.Unmarshal(listed, &pending) == nil && len(pending) == 1 {
			return pending[0].ID, pending[0].Note, nil
		}
	}
	return "", "", fmt.Errorf("no question on the desk")
}

// With progress (the default), Copilot restarts its timeout on each
// notification and waits on: an answer given after 200 s is the tool's
// result. (Without progress, Copilot gave up at about 180 s.)
func TestCopilotWaitsPastItsTimeoutWithProgressSlow(t *testing.T) {
	r, m, addr, session := copilotAtTheDesk(t)
	answered := make(chan error, 1)
	go func() {
		id, _, err := pendingAtTheDesk(addr)
		if err != nil {
			answered <- err
			return
		}
		time.Sleep(200 * time.Second) // past Copilot's 180 s, on purpose: the point of the test
		_, err = deskCall(addr, "POST", "/question/"+id+"/reply", map[string]any{"answers": [][]string{{"Postgres"}}})
		answered <- err
	}()
	start := time.Now()
	stop, err := r.Prompt(session, "Ask me about the service.")
	require.NoError(t, err)
	require.NoError(t, <-answered)
	t.Logf("the turn took %s", time.Since(start).Round(time.Second))
	assert.Equal(t, "end_turn", stop)
	assert.Equal(t, []string{`"Which database should the service use?"="Postgres"`}, copilotSaw(m))
	assert.NotContains(t, r.Stderr(), "the agent stopped waiting")
}

// Without progress (--mcp-progress=0, as for a host that ignores it, or
// past the ceiling) Copilot ends the call at about 180 s. The question
// stays on the desk saying so; the answer given there afterwards reaches
// the model at the start of the user's next prompt, and the client is
// shown what was added. Before, the answer reached nobody.
func TestCopilotLateAnswerReachesTheNextPromptSlow(t *testing.T) {
	r, m, addr, session := copilotAtTheDesk(t, "--mcp-progress=0")
	start := time.Now()
	stop, err := r.Prompt(session, "Ask me about the service.")
	require.NoError(t, err)
	t.Logf("Copilot's turn ended after %s, stop %q; the model read: %q", time.Since(start).Round(time.Second), stop, m.ToolResults())
	require.Len(t, m.ToolResults(), 1, "the tool call ended without an answer")
	assert.NotContains(t, m.ToolResults()[0], "Postgres")
	require.Eventually(t, func() bool { return strings.Contains(r.Stderr(), "the agent stopped waiting for a question") }, 10*time.Second, 100*time.Millisecond)

	id, note, err := pendingAtTheDesk(addr)
	require.NoError(t, err)
	assert.Equal(t, adapter.NoteNextPrompt, note)
	_, err = deskCall(addr, "POST", "/question/"+id+"/reply", map[string]any{"answers": [][]string{{"Postgres"}}})
	require.NoError(t, err)
	require.Eventually(t, func() bool { return strings.Contains(r.Stderr(), "a late answer waits for the agent") }, 10*time.Second, 100*time.Millisecond)

	before := len(m.Requests())
	stop, err = r.Prompt(session, "Go on.")
	require.NoError(t, err)
	assert.Equal(t, "end_turn", stop)
	var next string
	for _, q := range m.Requests()[before:] {
		if strings.Contains(string(q.Body), "Go on.") {
			next = string(q.Body)
			break
		}
	}
	require.NotEmpty(t, next, "the model got no request for the next prompt")
	assert.Contains(t, next, `\"Which database should the service use?\"=\"Postgres\"`, "the model's next request lacks the late answer")
	assert.Contains(t, next, "ask_user_question call had ended")
	assert.Contains(t, sessionText(r.Lines())[session], "askbridge added to your prompt", "the client was not shown what was added")
}
