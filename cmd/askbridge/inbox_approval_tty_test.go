//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// inboxApproval has an askbridge mirror the agent's own approval of
// `rm -rf build` to a hub started with hubArgs, and returns the client.
func inboxApproval(t *testing.T, hubArgs ...string) (*client, *hubProc, string) {
	dir, err := os.MkdirTemp("", "abinboxa")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "hub.sock")
	t.Setenv("ASKBRIDGE_HUB", sock)
	h := startHubProc(t, sock, hubArgs...)
	c := startClient(t, "--approvals", "mirror")
	sess := c.hubSetup(dir)
	c.prompt(sess, "session/request_permission", map[string]any{"sessionId": sess,
		"toolCall": map[string]any{"toolCallId": "call-1", "title": "Run rm -rf build", "kind": "execute", "rawInput": map[string]any{"command": "rm -rf build"}},
		"options": []any{
			map[string]any{"optionId": "allow", "name": "Allow", "kind": "allow_once"},
			map[string]any{"optionId": "reject", "name": "Reject", "kind": "reject_once"},
		}})
	c.permissionRequest() // the editor's copy
	h.waitSets(1, 5*time.Second)
	return c, h, sock
}

// The terminal inbox offers only what it may do: an agent's tool approval,
// which the hub takes from it only with --inbox-approvals, is shown with
// what it would run and where to answer it (the hub's page, with a
// passkey), and no option to pick: it offered "Allow", then failed with
// "403 … no approvals from the terminal inbox".
func TestE2EInboxShowsAnApprovalItMayNotAnswer(t *testing.T) {
	_, h, sock := inboxApproval(t)
	s := newTTY(t)
	s.run(120, "inbox --hub "+sock)
	out := s.result()
	screen := s.waitScreen("$ rm -rf build")
	assert.Contains(t, out, "EXIT=0", screen)
	assert.Contains(t, screen, "· approval")
	assert.Contains(t, screen, "$ rm -rf build", "what it would run")
	assert.Contains(t, strings.ReplaceAll(screen, "\n", ""), "Approve or reject it on the hub's page ("+h.url+"/), with your paired device's passkey, or in the editor")
	assert.NotContains(t, screen, "> Allow", "no choice the hub refuses")
	assert.NotContains(t, screen, "403")
	assert.NotContains(t, screen, "✔")
	h.waitSets(1, 5*time.Second) // it still waits, for the page or the editor
}

// With --inbox-approvals the inbox offers the agent's options, and the
// pick reaches the agent.
func TestE2EInboxAnswersAnApprovalWhenTheHubLetsIt(t *testing.T) {
	c, h, sock := inboxApproval(t, "--inbox-approvals")
	s := newTTY(t)
	s.run(120, "inbox --hub "+sock)
	screen := s.waitScreen("> Allow")
	assert.NotContains(t, screen, "takes no approvals")
	s.press("Down", "> Reject")
	s.key("Enter")
	assert.Contains(t, s.result(), "EXIT=0", s.screen())
	assert.Contains(t, c.agentSaw(), `"optionId":"reject"`)
	h.waitSets(0, 5*time.Second)
}
