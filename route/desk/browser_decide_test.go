//go:build browser

package desk

import (
	"context"
	"encoding/json"
	"os/exec"
	"testing"
	"time"

	"github.com/askbridge/askbridge/permission"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// In Chromium: "Always allow" is framed apart and lists what it changes;
// Deny… sends the reject option with its reason; a card another device
// claims says who has it and is answered here only after Take over.
func TestBrowserGrantsDenyAndClaims(t *testing.T) {
	needBrowser(t)
	s, board := newDesk(t, Options{})
	a := &permission.Approval{ToolCall: json.RawMessage(`{"toolCallId":"t1","kind":"execute","title":"git push","rawInput":{"command":"git push"}}`),
		Options: []permission.ApprovalOption{{OptionID: "once", Name: "Allow once", Kind: "allow_once"},
			{OptionID: "always", Name: "Always allow", Kind: "allow_always", Meta: json.RawMessage(`{"permission":{"version":1,"changes":[{"type":"addRules","description":"Allow Bash(git push:*) in this project"}]}}`)},
			{OptionID: "no", Name: "Reject", Kind: "reject_once"}}}
	tk := board.Open(permission.Request{SessionID: "s1", ToolCallID: "t1", Approval: a, Questions: []permission.Question{{
		Header: "Approval: execute", Question: "git push", Kind: permission.Fixed,
		Options: []permission.Option{{Label: "Allow once"}, {Label: "Always allow", Description: a.Options[1].Grant().Text("allow_always")}, {Label: "Reject"}}}}})
	q := board.Open(permission.Request{SessionID: "s1", Questions: []permission.Question{dbQ}, Round: 1})
	_, err := board.Claim(q.ID, permission.By{Device: "phone", Name: "Pixel 8"}, time.Minute, false)
	require.NoError(t, err)

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	code, _ := s.Devices().NewCode()
	out, err := exec.CommandContext(ctx, "node", "e2e/decide.mjs", s.URL(), code).CombinedOutput()
	require.NoError(t, err, string(out))
	got := string(out)
	assert.Contains(t, got, "ALWAYS CLASS option lasting")
	assert.Contains(t, got, "ALWAYS BADGE LASTING · allows from now on")
	assert.Contains(t, got, "ALWAYS CHANGES Allow Bash(git push:*) in this project")
	assert.Contains(t, got, "ALWAYS BORDER dashed")
	assert.Contains(t, got, "ONCE CLASS option\n")
	assert.Contains(t, got, "ONCE BORDER solid")
	assert.Contains(t, got, "DENIED")
	assert.Contains(t, got, "CLAIMED Being answered on Pixel 8.")
	assert.Contains(t, got, "TAKEN OVER")
	assert.Contains(t, got, "ANSWERED")
	<-tk.Done()
	r := tk.Result()
	assert.Equal(t, []string{"Reject"}, r.Answers[0].Answer.Labels)
	assert.Equal(t, "move it to archive/ instead", r.DenyReason)
	assert.Equal(t, "test browser", r.Device)
	<-q.Done()
	assert.Equal(t, []string{"SQLite"}, q.Result().Answers[0].Answer.Labels)
}
