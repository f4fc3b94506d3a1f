//go:build browser

package adapter

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route/desk"
)

// A Claude-shaped session in auto mode, its mode switched from the page in
// Chromium (a virtual authenticator for the passkey): to Manual, which
// asks more, the agent gets session/set_mode and the editor is told who
// switched; to Bypass permissions, which asks less, the page is refused
// while the user is not verified and the agent hears nothing; verified,
// the agent gets that switch too. The desk serves the bridge's own board.
func TestBrowserSwitchesAClaudeSessionsModeThroughTheBridge(t *testing.T) {
	e2e := filepath.Join("..", "route", "desk", "e2e")
	if _, err := os.Stat(filepath.Join(e2e, "node_modules", "playwright-core")); err != nil {
		t.Fatal("playwright-core is not installed: run route/desk/e2e/install.sh")
	}
	h, _ := modeHarness(t, ApprovalsMirror)
	h.bridge.board.Open(permission.Request{SessionID: "s1", Questions: []permission.Question{{Question: "Which database?", Header: "DB",
		Options: []permission.Option{{Label: "Postgres"}, {Label: "SQLite"}}}}})
	// The proxy describes the board as the agent reports its mode
	// (wire/proxy's showModes); here, after each switch.
	describe := func() {
		h.bridge.board.Describe(func(o *permission.Origin) {
			o.Agent, o.CWD, o.Modes = "Claude Code", "/home/ann/api", map[string]permission.SessionMode{"s1": cardMode(h.bridge)}
		})
	}
	describe()
	s, err := desk.Listen("127.0.0.1:0", h.bridge.board, desk.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	code, _ := s.Devices().NewCode()

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out := make(chan []byte, 1)
	go func() {
		b, err := exec.CommandContext(ctx, "node", filepath.Join(e2e, "mode.mjs"), s.URL(), code, filepath.Join(t.TempDir(), "mode.png")).CombinedOutput()
		if err != nil {
			b = append(b, []byte("\nnode: "+err.Error())...)
		}
		out <- b
	}()
	for _, mode := range []string{"default", "bypassPermissions"} {
		req := decode(t, h.Agent.RecvWithin(50*time.Second))
		require.Equal(t, "session/set_mode", req.Method)
		assert.JSONEq(t, `{"sessionId":"s1","modeId":"`+mode+`"}`, string(req.Params))
		h.Agent.Send(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{}}`)
		said := decode(t, h.Client.Recv())
		assert.Contains(t, string(said.Params), "the session's mode was switched to", "the editor is told")
		assert.Contains(t, string(said.Params), "by test browser")
		describe()
	}
	got := string(<-out)
	assert.Contains(t, got, "SELECTED auto", "the card says Claude's mode")
	assert.Contains(t, got, "MORE Switched")
	assert.Regexp(t, `LESS UNVERIFIED Not switched: \S`, got)
	assert.Contains(t, got, "LESS VERIFIED Switched")
	m, _ := h.bridge.Mode("s1")
	assert.Equal(t, "bypassPermissions", m.ID)
}

// cardMode is the session's mode as the proxy puts it on a card
// (wire/proxy's showModes): the agent's words and how much each asks.
func cardMode(b *Bridge) permission.SessionMode {
	m, _ := b.Mode("s1")
	return m.Board()
}
