//go:build browser

package desk

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

// A card whose session reports its modes switches it from a phone: to a
// mode that asks more with the device alone, to one that asks less only
// once the passkey verified the user; what happened is said beside the
// button, within the screen. The switcher is a fake of the bridge's rule.
func TestBrowserSwitchesTheSessionsMode(t *testing.T) {
	needBrowser(t)
	mode := permission.SessionMode{ID: "auto", Name: "Auto", Asks: 1, Available: []permission.ModeOption{
		{ID: "default", Name: "Manual", Asks: 2}, {ID: "auto", Name: "Auto", Asks: 1},
		{ID: "bypassPermissions", Name: "Bypass permissions", Asks: 0}}}
	s, board := newDesk(t, Options{})
	board.Describe(func(o *permission.Origin) {
		o.Agent, o.CWD, o.Modes = "Claude Code", "/home/ann/api", map[string]permission.SessionMode{"s1": mode}
	})
	var mu sync.Mutex
	var heard []string
	board.HandleModes(func(set permission.Pending, to string, by permission.By) error {
		mu.Lock()
		defer mu.Unlock()
		if to == "bypassPermissions" && !by.Proof.Has(permission.ProofPresence) {
			return permission.ErrModeNeedsPresence
		}
		heard = append(heard, to+" "+by.Proof.String())
		// The agent reports its new mode, as the bridge hears it
		// (current_mode_update): the card shows it while the set waits.
		board.Describe(func(o *permission.Origin) {
			m := o.Modes[set.SessionID]
			m.ID = to
			for _, a := range m.Available {
				if a.ID == to {
					m.Name, m.Asks = a.Name, a.Asks
				}
			}
			o.Modes[set.SessionID] = m
		})
		return nil
	})
	board.Open(permission.Request{SessionID: "s1", ToolCallID: "t1", Approval: &permission.Approval{
		ToolCall: json.RawMessage(`{"toolCallId":"t1","kind":"execute","title":"ls"}`),
		Options:  []permission.ApprovalOption{{OptionID: "once", Name: "Allow once", Kind: "allow_once"}, {OptionID: "no", Name: "Reject", Kind: "reject_once"}}},
		Questions: []permission.Question{{Header: "Approval: execute", Question: "ls", Kind: permission.Fixed, Options: []permission.Option{{Label: "Allow once"}, {Label: "Reject"}}}}})

	shot := filepath.Join(t.TempDir(), "mode.png")
	if dir := os.Getenv("ASKBRIDGE_SCREENSHOT_DIR"); dir != "" {
		shot = filepath.Join(dir, "card-mode.png")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	code, _ := s.Devices().NewCode()
	out, err := exec.CommandContext(ctx, "node", "e2e/mode.mjs", s.URL(), code, shot).CombinedOutput()
	require.NoError(t, err, string(out))
	got := string(out)
	assert.Contains(t, got, `OPTIONS ["Manual","Auto","Bypass permissions (asks less: passkey)"]`)
	assert.Contains(t, got, "SELECTED auto")
	assert.Contains(t, got, "MORE Switched; the agent and the editor are told. | IN VIEW true")
	assert.Contains(t, got, "NOW Mode: Manual | SELECTED default", "the card shows the mode as it is now")
	assert.Regexp(t, `LESS UNVERIFIED Not switched: \S.* \| IN VIEW true`, got)
	assert.Contains(t, got, "LESS VERIFIED Switched; the agent and the editor are told. | IN VIEW true")
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, []string{"default a paired device", "bypassPermissions a paired device and your presence (a passkey)"}, heard)
}
