package adapter

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/internal/notes"
	"github.com/askbridge/askbridge/permission"
)

// openStore opens a notes store in dir, as each askbridge process does.
func openStore(t *testing.T, dir string) *notes.Store {
	t.Helper()
	s, err := notes.Open(dir, notes.Limits{})
	require.NoError(t, err)
	return s
}

// loadAndPrompt has a new askbridge's client load session id and send a
// prompt, as acpx does for every `acpx prompt`, and returns the prompt's
// text blocks as the agent got them.
func loadAndPrompt(t *testing.T, h *bridgeHarness, id, text string) []string {
	t.Helper()
	h.Client.Send(`{"jsonrpc":"2.0","id":"load","method":"session/load","params":{"sessionId":"` + id + `","cwd":"/tmp/p","mcpServers":[]}}`)
	h.Agent.Recv()
	h.Agent.Send(`{"jsonrpc":"2.0","id":"load","result":{}}`)
	h.Client.Recv()
	return h.Prompt(t, "p-"+text, id, text)
}

// A reason given with "Deny…" in one askbridge reaches the first prompt
// of the next askbridge that loads the session (acpx starts one per
// prompt), once: neither that one's next prompt nor the first askbridge's
// gets it again. Before, it died with the first process.
func TestADenialsReasonOutlivesItsAskbridge(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "notes")
	a, board := approvalsBridge(t, Options{Approvals: ApprovalsMirror, Notes: openStore(t, dir)})
	a.Agent.Send(bashApproval)
	a.Client.Recv()
	p := onBoard(t, board)
	const reason = "move it to archive/ instead"
	_, err := board.ProgressBy(p.ID, 0, []permission.Answer{{Labels: []string{"Reject"}}}, permission.By{Reason: reason, Route: permission.RoutePage, Proof: permission.ProofDevice | permission.ProofPresence})
	require.NoError(t, err)
	a.AgentReply(t, `"perm-1"`)

	b := newBridgeHarness(t, Options{Notes: openStore(t, dir)})
	assert.Equal(t, []string{DenialNote("rm -rf build", reason), "go on"}, loadAndPrompt(t, b, "s1", "go on"))
	assert.Equal(t, []string{"again"}, b.Prompt(t, "p2", "s1", "again"), "delivered once")
	a.Agent.Send(`{"jsonrpc":"2.0","id":"p1","result":{"stopReason":"end_turn"}}`)
	assert.Equal(t, []string{"more"}, a.Prompt(t, "p3", "s1", "more"), "the first askbridge delivered it too")
}

// A late answer kept by one askbridge reaches the next one's first prompt
// in the session, once; another session's prompt does not get it.
func TestALateAnswerOutlivesItsAskbridge(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "notes")
	a := newLateHarness(t, Options{Notes: openStore(t, dir)})
	a.OpenSession(t, "s1")
	req := a.askAndGiveUp(t)
	a.Answer(t, req, pick("Redis"))
	waitFor(t, "the answer is kept for the next prompt", func() bool {
		return a.bridge.late.Late("s1") == 1
	})

	b := newBridgeHarness(t, Options{Notes: openStore(t, dir)})
	assert.Equal(t, []string{"other"}, loadAndPrompt(t, b, "s2", "other"), "another session's prompt")
	got := loadAndPrompt(t, b, "s1", "go on")
	require.Len(t, got, 2)
	assert.Contains(t, got[0], `"Which database?"="Redis"`)
	assert.Contains(t, got[0], "ask_user_question call had ended")
	assert.Equal(t, "go on", got[1])
	assert.Equal(t, []string{"again"}, b.Prompt(t, "p2", "s1", "again"), "delivered once")
	a.Agent.Send(`{"jsonrpc":"2.0","id":"p1","result":{"stopReason":"end_turn"}}`)
	assert.Equal(t, []string{"more"}, a.Prompt(t, "p3", "s1", "more"), "the first askbridge delivered it too")
}

// Without a store (Options.Notes nil) notes stay in memory, as before.
func TestNotesWithoutAStoreStayInMemory(t *testing.T) {
	h, _ := approvalsBridge(t, Options{})
	h.bridge.NextPrompt("s1", "remember this")
	h.Agent.Send(`{"jsonrpc":"2.0","id":"p1","result":{"stopReason":"end_turn"}}`)
	assert.Equal(t, []string{"remember this", "go"}, h.Prompt(t, "p2", "s1", "go"))
}
