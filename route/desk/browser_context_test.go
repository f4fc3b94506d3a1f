//go:build browser

package desk

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

// At a phone's width (390 px) the card of an edit says what the agent said
// and planned before it asked, collapsed until tapped, and shows the edit
// as a line diff: three unchanged lines around each change, a gap for the
// rest, every line marked; nothing wider than the screen.
func TestBrowserShowsTheAgentsWordsAndALineDiff(t *testing.T) {
	needBrowser(t)
	said := permission.Context{Words: "The retry count is too low for the flaky CI runner; I will raise it from 3 to 5 in config.go.",
		Plan: []permission.PlanEntry{{Content: "Find why CI fails", Status: "completed"}, {Content: "Raise the retry count", Priority: "high", Status: "in_progress"}}}
	s, board := newDesk(t, Options{})
	board.Describe(func(o *permission.Origin) { o.Agent, o.CWD = "Claude Code", "/home/ann/api" })
	var old, neu []string
	for i := 1; i <= 20; i++ {
		old = append(old, "line "+string(rune('a'+i)))
	}
	neu = append(append(append([]string{}, old[:9]...), "retries = 5 // the CI runner is flaky"), old[10:]...)
	old[9] = "retries = 3"
	tc, _ := json.Marshal(map[string]any{"toolCallId": "t1", "kind": "edit", "title": "Edit config.go",
		"content": []any{map[string]any{"type": "diff", "path": "/home/ann/api/config.go", "oldText": strings.Join(old, "\n"), "newText": strings.Join(neu, "\n")}}})
	board.Open(permission.Request{SessionID: "s1", ToolCallID: "t1", Context: &said, Approval: &permission.Approval{ToolCall: tc,
		Options: []permission.ApprovalOption{{OptionID: "once", Name: "Allow once", Kind: "allow_once"}, {OptionID: "no", Name: "Reject", Kind: "reject_once"}}},
		Questions: []permission.Question{{Header: "Approval: edit", Question: "Edit config.go", Kind: permission.Fixed, Options: []permission.Option{{Label: "Allow once"}, {Label: "Reject"}}}}})

	shot := filepath.Join(t.TempDir(), "context.png")
	if dir := os.Getenv("ASKBRIDGE_SCREENSHOT_DIR"); dir != "" {
		shot = filepath.Join(dir, "card-context.png")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	code, _ := s.Devices().NewCode()
	out, err := exec.CommandContext(ctx, "node", "e2e/context.mjs", s.URL(), code, shot).CombinedOutput()
	require.NoError(t, err, string(out))
	var shown []string // what the page showed; the browser's console lines apart
	for _, l := range strings.Split(string(out), "\n") {
		if !strings.HasPrefix(l, "CONSOLE ") {
			shown = append(shown, l)
		}
	}
	got := strings.Join(shown, "\n")
	assert.Contains(t, got, "OPEN false\nSUMMARY Before the agent asked: its last words and its plan (2)\nOPEN true\n", "collapsed on a phone, opened by a tap")
	assert.Contains(t, got, `WORDS "The retry count is too low for the flaky CI runner; I will raise it from 3 to 5 in config.go."`)
	assert.Contains(t, got, "PLAN ✓ done Find why CI fails\nPLAN ▶ doing Raise the retry count high\n")
	assert.Contains(t, got, `DIFF "⋯"
DIFF "  line h"
DIFF "  line i"
DIFF "  line j"
DIFF "- retries = 3"
DIFF "+ retries = 5 // the CI runner is flaky"
DIFF "  line l"
DIFF "  line m"
DIFF "  line n"
DIFF "⋯"
`, "the change, three lines either side, the rest left out")
	assert.Contains(t, got, "WIDTH 390 390", "nothing wider than the phone")
}
