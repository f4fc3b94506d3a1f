package adapter

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter/dialect"
)

// claudeModes is claude-agent-acp's session/new result on a fresh settings
// folder: it starts in auto, which runs tools without asking.
const claudeModes = `{"jsonrpc":"2.0","id":"new","result":{"sessionId":"s1","modes":{"currentModeId":"auto","availableModes":[` +
	`{"id":"default","name":"Manual","description":"Always ask before making changes"},` +
	`{"id":"acceptEdits","name":"Accept edits","description":"Automatically accept all file edits"},` +
	`{"id":"plan","name":"Plan","description":"Create a plan before making changes"},` +
	`{"id":"auto","name":"Auto","description":"Claude handles permission decisions"},` +
	`{"id":"bypassPermissions","name":"Bypass permissions","description":"Accepts all permissions"}]}}}`

// modeHarness starts a session whose agent answers session/new with
// claudeModes, and records what OnMode hears.
func modeHarness(t *testing.T, approvals Approvals) (*bridgeHarness, func() []SessionMode) {
	t.Helper()
	var mu sync.Mutex
	var heard []SessionMode
	h := newBridgeHarness(t, Options{Approvals: approvals, OnMode: func(session string, m SessionMode) {
		assert.Equal(t, "s1", session)
		mu.Lock()
		heard = append(heard, m)
		mu.Unlock()
	}})
	h.Client.Send(`{"jsonrpc":"2.0","id":"new","method":"session/new","params":{"cwd":"/tmp/p","mcpServers":[]}}`)
	h.Agent.Recv()
	h.Agent.Send(claudeModes)
	assert.JSONEq(t, claudeModes, h.Client.Recv(), "the response passes as it came")
	return h, func() []SessionMode { mu.Lock(); defer mu.Unlock(); return append([]SessionMode(nil), heard...) }
}

// Claude started in auto mode: askbridge reads the mode from session/new,
// in Claude's own words, knows it runs tools unasked, and, with approvals
// expected away from the editor, tells the editor at the first prompt,
// once; the log and the cards (OnMode) hear it at once.
func TestAnUnaskedModeIsSaidWhereApprovalsAreExpected(t *testing.T) {
	h, heard := modeHarness(t, ApprovalsMirror)
	m, ok := h.bridge.Mode("s1")
	require.True(t, ok)
	assert.Equal(t, "auto", m.ID)
	assert.Equal(t, "Auto", m.Name)
	assert.Equal(t, dialect.ModeAutoReview, m.Kind)
	assert.Len(t, m.Available, 5)
	assert.Equal(t, dialect.ModeFullAccess, m.Available[4].Kind)
	require.Len(t, heard(), 1)
	assert.Contains(t, heard()[0].Warning(), `"Auto" mode`)

	h.Client.Send(`{"jsonrpc":"2.0","id":"p1","method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`)
	said := decode(t, h.Client.Recv())
	assert.Equal(t, "session/update", said.Method)
	assert.Contains(t, string(said.Params), `the agent decides itself which tool calls to ask about`)
	h.Agent.Recv()
	h.Client.Send(`{"jsonrpc":"2.0","id":"p2","method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`)
	assert.Contains(t, h.Agent.Recv(), `"p2"`, "said once per mode: the second prompt goes straight on")

	// The agent switches to a mode that asks: read, and nothing said.
	update := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"current_mode_update","currentModeId":"default"}}}`
	h.Agent.Send(update)
	assert.Equal(t, update, h.Client.Recv())
	require.Eventually(t, func() bool { return len(heard()) == 2 }, 2*time.Second, 5*time.Millisecond)
	m, _ = h.bridge.Mode("s1")
	assert.Equal(t, "Manual", m.Name)
	assert.Empty(t, m.Warning())

	// The editor sets bypass: said at once, the turn being on.
	h.Client.Send(`{"jsonrpc":"2.0","id":"sm","method":"session/set_mode","params":{"sessionId":"s1","modeId":"bypassPermissions"}}`)
	h.Agent.Recv()
	h.Agent.Send(`{"jsonrpc":"2.0","id":"sm","result":{}}`)
	h.Client.Recv()
	require.Eventually(t, func() bool { return len(heard()) == 3 }, 2*time.Second, 5*time.Millisecond)
	assert.Contains(t, heard()[2].Warning(), "runs every tool without asking")
}

// With approvals in the editor (the default), the editor shows the mode
// itself: askbridge adds nothing to the conversation.
func TestAnUnaskedModeAddsNothingWhenApprovalsStayInTheEditor(t *testing.T) {
	h, heard := modeHarness(t, ApprovalsClient)
	require.Len(t, heard(), 1)
	prompt := `{"jsonrpc":"2.0","id":"p1","method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`
	h.Client.Send(prompt)
	assert.Equal(t, prompt, h.Agent.Recv())
	h.Agent.Send(`{"jsonrpc":"2.0","id":"p1","result":{"stopReason":"end_turn"}}`)
	assert.Contains(t, h.Client.Recv(), `"end_turn"`, "no askbridge text came before the turn's end")
}
