//go:build linux

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

// The agent cannot answer through the terminal inbox: not its own
// question, not another agent's; not by piping "2" into `askbridge inbox`
// from its shell tool, not from a double-forked, setsid'd grandchild (which
// stays below askbridge, its subreaper), not from below an askbridge run
// with --hub off (which the hub knows by its executable). The user's own
// inbox, outside every agent's tree, still answers. On c4ea460 the agent's
// inbox answered with the token from ~/.config/askbridge/hub-token.
// The askbridges run with --contain off: a contained agent cannot even read
// the hub's key (TestContainedAgent), and the hub's own check is what stands
// where containment is not possible.
func TestE2EInboxRefusesTheAgent(t *testing.T) {
	dir, err := os.MkdirTemp("", "abinboxa")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "hub.sock")
	t.Setenv("ASKBRIDGE_HUB", sock)
	h := startHubProc(t, sock)

	a := startClient(t, "--contain", "off")
	s1 := a.hubSetup(dir)
	s2 := a.response(a.request("session/new", map[string]any{"cwd": dir, "mcpServers": []any{}}))["result"].(map[string]any)["sessionId"].(string)
	a.prompt(s1, "_askbridge/ask", map[string]any{"questions": []any{question("Deploy to production?", "Deploy", false, "no", "yes")}})
	a.permissionRequest()
	h.waitSets(1, 5*time.Second)

	pipe := `printf '2\n' | ` + askbridgeBin + ` inbox --hub ` + sock
	a.prompt(s2, "shell", map[string]any{"argv": []string{"sh", "-c", pipe}})
	saw := a.agentSaw()
	assert.Contains(t, saw, "exit=1 ", saw)
	assert.Contains(t, saw, "runs below an askbridge, inside an agent's process tree: only the user answers, not the agent", saw)
	h.waitSets(1, time.Second)

	// A grandchild that left its parent and its session.
	out := filepath.Join(dir, "forked.out")
	fork := `(setsid sh -c '` + pipe + ` >` + out + ` 2>&1; echo "exit=$?" >>` + out + `' &) ; exit 0`
	a.prompt(s2, "shell", map[string]any{"argv": []string{"sh", "-c", fork}})
	assert.Contains(t, a.agentSaw(), "exit=0 ")
	var got string
	require.Eventually(t, func() bool {
		b, _ := os.ReadFile(out)
		got = string(b)
		return strings.Contains(got, "exit=")
	}, 10*time.Second, 20*time.Millisecond)
	assert.Contains(t, got, "inside an agent's process tree", got)
	assert.Contains(t, got, "exit=1", got)
	h.waitSets(1, time.Second)

	// An agent below an askbridge that does not report to the hub.
	off := startClient(t, "--hub", "off", "--contain", "off")
	s3 := off.hubSetup(dir)
	off.prompt(s3, "shell", map[string]any{"argv": []string{"sh", "-c", pipe}})
	saw = off.agentSaw()
	assert.Contains(t, saw, "exit=1 ", saw)
	assert.Contains(t, saw, "inside an agent's process tree", saw)
	h.waitSets(1, time.Second)

	// The user, in a terminal of their own.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd, _, errOut := inboxCmd(t, ctx, sock, strings.NewReader("2\n"))
	require.NoError(t, cmd.Run(), errOut.String())
	assert.Contains(t, a.agentSaw(), `"Deploy to production?":"yes"`)
}
