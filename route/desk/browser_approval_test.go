//go:build browser

package desk

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/askbridge/askbridge/permission"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The page renders an approval apart from a question: the command in a
// monospace block, the lasting option marked, no Other; picking an option
// answers it by name, with the passkey the browser made when it paired (a
// DevTools virtual authenticator): refused while the authenticator does
// not verify the user, sent once it does.
func TestBrowserShowsAndAnswersAnApproval(t *testing.T) {
	needBrowser(t)
	s, board := newDesk(t, Options{})
	a := &permission.Approval{ToolCall: json.RawMessage(`{"toolCallId":"t1","kind":"execute","title":"rm -rf build","rawInput":{"command":"rm -rf build <b>now</b>"}}`),
		Options: []permission.ApprovalOption{{OptionID: "once", Name: "Allow once", Kind: "allow_once"}, {OptionID: "always", Name: "Always allow", Kind: "allow_always"}, {OptionID: "no", Name: "Reject", Kind: "reject_once"}}}
	tk := board.Open(permission.Request{SessionID: "s1", ToolCallID: "t1", Approval: a, Questions: []permission.Question{{
		Header: "Approval: execute", Question: "rm -rf build", Kind: permission.Fixed,
		Options: []permission.Option{{Label: "Allow once"}, {Label: "Always allow", Description: "lasting: the agent will not ask again"}, {Label: "Reject"}}}}})

	shot := filepath.Join(t.TempDir(), "approval.png")
	if dir := os.Getenv("ASKBRIDGE_SCREENSHOT_DIR"); dir != "" {
		shot = filepath.Join(dir, "approval.png")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	code, _ := s.Devices().NewCode()
	out, err := exec.CommandContext(ctx, "node", "e2e/approval.mjs", s.URL(), code, shot).CombinedOutput()
	require.NoError(t, err, string(out))
	got := string(out)
	assert.Contains(t, got, `RUN "rm -rf build <b>now</b>"`, "the command as text, not HTML")
	assert.Contains(t, got, "FONT ui-monospace")
	assert.Contains(t, got, "LASTING lasting: the agent will not ask again")
	assert.Contains(t, got, "OTHER 0")
	assert.Contains(t, got, "DEVICE test browser (this browser) · passkey ·", "paired with a passkey")
	assert.Regexp(t, `REFUSED \S`, got, "no approval without the user verified")
	assert.Contains(t, got, "STILL PENDING 1")
	assert.Contains(t, got, "SENT")
	<-tk.Done()
	assert.Equal(t, []string{"Allow once"}, tk.Result().Answers[0].Answer.Labels)
}
