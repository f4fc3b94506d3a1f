//go:build unix

package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A set that ends elsewhere while the inbox asks it says how it ended:
// cancelled at the hub's page is not "answered", and an answer in the
// editor says so.
func TestE2EInboxTellsAnsweredFromCancelled(t *testing.T) {
	dir, err := os.MkdirTemp("", "abinboxe")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "hub.sock")
	t.Setenv("ASKBRIDGE_HUB", sock)
	h := startHubProc(t, sock)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	cmd, _, errOut := inboxCmd(t, ctx, sock, nil, "--watch")
	lb := &lockedBuffer{} // read while the inbox writes
	cmd.Stdout = lb
	pw, err := cmd.StdinPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { pw.Close(); cmd.Process.Kill() })

	c := startClient(t)
	s := c.hubSetup(dir)
	c.prompt(s, "_askbridge/ask", map[string]any{"questions": []any{question("Drop the table?", "Drop", false, "yes", "no")}})
	c.permissionRequest()
	sets := h.waitSets(1, 5*time.Second)
	require.Eventually(t, func() bool { return strings.Contains(lb.String(), "Drop the table?") }, 10*time.Second, 20*time.Millisecond)
	var ok bool
	// The inbox claims what it asks: the page takes it over first (claims).
	require.Eventually(t, func() bool {
		l := h.waitSets(1, 5*time.Second)
		return l[0].Claim != nil && l[0].Claim.Name == "the terminal inbox"
	}, 10*time.Second, 20*time.Millisecond, "the set shows the inbox answering it")
	var claimed map[string]any
	h.do("POST", "/question/"+sets[0].ID+"/hold", `{"takeover":true}`, &claimed)
	h.do("POST", "/question/"+sets[0].ID+"/reject", "", &ok)
	require.Eventually(t, func() bool {
		return strings.Contains(lb.String(), "Cancelled elsewhere on the hub's page; the agent was told.")
	},
		10*time.Second, 20*time.Millisecond, "%s", lb)
	assert.NotContains(t, lb.String(), "Answered elsewhere")

	c.prompt(s, "_askbridge/ask", map[string]any{"questions": []any{question("Ship it?", "Ship", false, "yes", "no")}})
	req := c.permissionRequest()
	require.Eventually(t, func() bool { return strings.Contains(lb.String(), "Ship it?") }, 10*time.Second, 20*time.Millisecond)
	c.reply(req, `{"outcome":{"outcome":"selected","optionId":"yes"}}`)
	require.Eventually(t, func() bool { return strings.Contains(lb.String(), "Answered elsewhere in the editor.") },
		10*time.Second, 20*time.Millisecond, "%s", lb)
	require.NoError(t, cmd.Process.Signal(os.Interrupt))
	require.NoError(t, cmd.Wait(), errOut.String())
}
