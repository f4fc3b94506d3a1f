package conformance

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// peerReport is what conformance/v2peers/client.mjs prints.
type peerReport struct {
	Agreed      int               `json:"agreed"`
	Refused     string            `json:"refused"`
	Permissions []json.RawMessage `json:"permissions"`
	States      []string          `json:"states"`
	Text        []string          `json:"text"`
	StopReason  string            `json:"stopReason"`
	Error       string            `json:"error"`
}

// runPeers runs the scripted client of version client, answering with
// outcome, against askbridge (bin) and the scripted agent of version agent.
func runPeers(t *testing.T, bin, client, agent, outcome string) peerReport {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "client.mjs", client, outcome, "--",
		bin, "--min-answer-time=0", "--log-level=warn", "--", "node", "agent.mjs", agent)
	cmd.Dir = "v2peers"
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir()) // no hub of the user's
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var r peerReport
	require.NoError(t, json.Unmarshal(out, &r), "client output %q, stderr:\n%s", out, stderr.String())
	require.NoError(t, err, "client error %q, stderr:\n%s", r.Error, stderr.String())
	return r
}

// v2peersBinary is askbridge built for the pairings, or a skip saying why
// they cannot run here.
func v2peersBinary(t *testing.T) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the scripted peers run on Unix (node, askbridge's agent pipes)")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: the scripted v2 peers run on it")
	}
	if _, err := os.Stat("v2peers/node_modules/@agentclientprotocol/sdk/package.json"); err != nil {
		t.Skip("the ACP TypeScript SDK is not installed: run conformance/v2peers/install.sh (make test-v2 does)")
	}
	bin := filepath.Join(t.TempDir(), "askbridge")
	out, err := exec.Command("go", "build", "-o", bin, "../cmd/askbridge").CombinedOutput()
	require.NoError(t, err, string(out))
	return bin
}

// The four version pairings, each side a real component on the official
// TypeScript SDK (its v2 API, or its v1 API), askbridge between them. The
// SDK parses every message with the schema's validators, so a v2 client
// that got a v1-shaped permission request, or a v2 agent an untyped MCP
// server, would fail here.
func TestVersionPairingsThroughAskbridge(t *testing.T) {
	bin := v2peersBinary(t)
	t.Run("v2 editor, v2 agent", func(t *testing.T) {
		t.Parallel()
		r := runPeers(t, bin, "v2", "v2", "first")
		assert.Equal(t, 2, r.Agreed)
		require.Len(t, r.Permissions, 2)
		var q struct {
			Title   string `json:"title"`
			Subject struct {
				Type     string `json:"type"`
				ToolCall struct {
					Kind string `json:"kind"`
				} `json:"toolCall"`
			} `json:"subject"`
			Options []struct {
				OptionID string `json:"optionId"`
				Kind     string `json:"kind"`
			} `json:"options"`
		}
		require.NoError(t, json.Unmarshal(r.Permissions[0], &q))
		assert.Equal(t, "Database", q.Title)
		assert.Equal(t, "tool_call", q.Subject.Type)
		assert.Equal(t, "think", q.Subject.ToolCall.Kind)
		require.Len(t, q.Options, 2)
		assert.Equal(t, "Postgres", q.Options[0].OptionID)
		assert.Contains(t, string(r.Permissions[1]), `"type":"command"`, "the agent's own v2 approval reaches the editor as it came")
		assert.Equal(t, []string{"running", "requires_action", "running", "idle"}, r.States)
		assert.Equal(t, []string{"you chose Postgres", "approval: selected allow"}, r.Text)
	})
	t.Run("v1 editor, v2 agent", func(t *testing.T) {
		t.Parallel()
		r := runPeers(t, bin, "v1", "v2", "first")
		assert.Equal(t, 1, r.Agreed, "the v2 agent answers a v1 editor with v1")
		require.Len(t, r.Permissions, 1)
		assert.Contains(t, string(r.Permissions[0]), `"toolCall":`)
		assert.Equal(t, []string{"you chose Postgres"}, r.Text)
		assert.Equal(t, "end_turn", r.StopReason)
	})
	t.Run("v2 editor, v1 agent", func(t *testing.T) {
		t.Parallel()
		r := runPeers(t, bin, "v2", "v1", "first")
		assert.NotEmpty(t, r.Refused, "the v1 agent's answer reaches the v2 editor as v1, which closes")
		assert.Equal(t, 1, r.Agreed, "and speaks v1 on a new connection")
		require.Len(t, r.Permissions, 1)
		assert.Contains(t, string(r.Permissions[0]), `"toolCall":`)
		assert.Equal(t, []string{"you chose Postgres"}, r.Text)
	})
	t.Run("v1 editor, v1 agent", func(t *testing.T) {
		t.Parallel()
		r := runPeers(t, bin, "v1", "v1", "first")
		assert.Equal(t, 1, r.Agreed)
		assert.Equal(t, []string{"you chose Postgres"}, r.Text)
	})
}

// An outcome no version defines ("_acme_later") is never an answer: the
// question is cancelled for the agent, and the agent's own approval gets
// the editor's response as it came, which it does not take for approval.
func TestUnknownOutcomeThroughAskbridge(t *testing.T) {
	bin := v2peersBinary(t)
	r := runPeers(t, bin, "v2", "v2", "_acme_later")
	assert.Equal(t, 2, r.Agreed)
	assert.Equal(t, []string{"no answer (cancel)", "approval: _acme_later not allowed"}, r.Text)
}
