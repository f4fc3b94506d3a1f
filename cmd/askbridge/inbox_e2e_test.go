//go:build unix

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/route/inbox"
)

// inboxCmd is `askbridge inbox ARGS` at the hub on socket sock, with
// stdin from in. It carries no token.
func inboxCmd(t *testing.T, ctx context.Context, sock string, in io.Reader, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	cmd := exec.CommandContext(ctx, askbridgeBin, append([]string{"inbox", "--hub", sock}, args...)...)
	cmd.Env = append(os.Environ(), "ASKBRIDGE_HUB_TOKEN=", "GORACE=atexit_sleep_ms=0")
	var out, errOut bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = in, &out, &errOut
	cmd.WaitDelay = time.Second
	return cmd, &out, &errOut
}

// The terminal's view of the hub: --json lists what waits, with its agent
// and folder; piped numbered answers answer it at the hub, the agent gets
// them and the editor's request is withdrawn.
func TestE2EInboxListsAndAnswers(t *testing.T) {
	dir, err := os.MkdirTemp("", "abinbox")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "hub.sock")
	t.Setenv("ASKBRIDGE_HUB", sock)
	h := startHubProc(t, sock)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	c := startClient(t)
	s := c.hubSetup(filepath.Join(dir, "api"))
	c.prompt(s, "_askbridge/ask", map[string]any{"questions": []any{
		question("Which database?", "Database", false, "Postgres", "SQLite"),
		question("Which features?", "Features", true, "auth", "search", "billing"),
	}})
	req := c.permissionRequest()
	h.waitSets(1, 5*time.Second)

	cmd, out, errOut := inboxCmd(t, ctx, sock, nil, "--json")
	require.NoError(t, cmd.Run(), errOut.String())
	var sets []hubSet
	require.NoError(t, json.Unmarshal(out.Bytes(), &sets), out.String())
	require.Len(t, sets, 1)
	assert.Equal(t, filepath.Join(dir, "api"), sets[0].CWD)
	assert.Equal(t, "scripted-agent", sets[0].Instance.Agent)
	assert.Equal(t, "Which database?", sets[0].Questions[0].Question)

	// SQLite; auth and billing.
	cmd, out, errOut = inboxCmd(t, ctx, sock, strings.NewReader("2\n1,3\n"))
	require.NoError(t, cmd.Run(), errOut.String())
	assert.Contains(t, out.String(), "scripted-agent · "+filepath.Join(dir, "api")+" · Zed", "the set is named by agent, folder and editor")
	assert.Contains(t, out.String(), "Which features?")
	assert.True(t, strings.HasSuffix(out.String(), "✔ Sent to scripted-agent · "+filepath.Join(dir, "api")+" · Zed.\n"), "the last answer is said to be sent: %s", out)
	withdrawn := c.next(func(m map[string]any) bool { return m["method"] == "$/cancel_request" })
	assert.Equal(t, req["id"], withdrawn["params"].(map[string]any)["requestId"], "the editor's request is withdrawn")
	saw := c.agentSaw()
	assert.Contains(t, saw, `"Which database?":"SQLite"`)
	assert.Contains(t, saw, `"Which features?":"auth, billing"`)
	h.waitSets(0, 5*time.Second)

	cmd, out, errOut = inboxCmd(t, ctx, sock, strings.NewReader(""))
	require.NoError(t, cmd.Run(), errOut.String())
	assert.Contains(t, out.String(), "Nothing waits.")
}

// --watch asks each set as it arrives, and ends when interrupted.
func TestE2EInboxWatch(t *testing.T) {
	dir, err := os.MkdirTemp("", "abinboxw")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "hub.sock")
	t.Setenv("ASKBRIDGE_HUB", sock)
	startHubProc(t, sock)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	cmd, out, errOut := inboxCmd(t, ctx, sock, nil, "--watch")
	pw, err := cmd.StdinPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { pw.Close(); cmd.Process.Kill() })

	c := startClient(t)
	s := c.hubSetup(dir)
	for i, want := range []string{"yes", "no"} {
		q := []string{"First?", "Second?"}[i]
		c.prompt(s, "_askbridge/ask", map[string]any{"questions": []any{question(q, "Q", false, "yes", "no")}})
		c.permissionRequest()
		_, err := io.WriteString(pw, map[string]string{"yes": "1\n", "no": "2\n"}[want])
		require.NoError(t, err)
		assert.Contains(t, c.agentSaw(), `"`+q+`":"`+want+`"`)
	}
	// Interrupted while it waits, it ends cleanly.
	time.Sleep(2 * inbox.Poll)
	require.NoError(t, cmd.Process.Signal(os.Interrupt))
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		require.NoError(t, err, errOut.String())
	case <-time.After(5 * time.Second):
		t.Fatal("the inbox did not end when interrupted")
	}
	assert.Contains(t, out.String(), "Waiting for questions")
}

// Without a hub, the inbox says how to start one.
func TestInboxWithoutHub(t *testing.T) {
	sock := filepath.Join(privateDir(t), "hub.sock")
	cmd := exec.Command(askbridgeBin, "inbox", "--hub", sock)
	out, err := cmd.CombinedOutput()
	require.Error(t, err)
	assert.Equal(t, 1, cmd.ProcessState.ExitCode())
	assert.Equal(t, "askbridge inbox: no hub at "+strings.TrimSuffix(sock, ".sock")+".inbox.sock: start one with `askbridge hub` (or pass its socket with --hub)\n", string(out))

	home := privateDir(t)
	cmd = exec.Command(askbridgeBin, "inbox")
	cmd.Env = append(os.Environ(), "ASKBRIDGE_HUB=", "XDG_RUNTIME_DIR=", "HOME="+home, "XDG_CACHE_HOME="+filepath.Join(home, "cache"))
	out, err = cmd.CombinedOutput()
	require.Error(t, err)
	assert.Contains(t, string(out), "no hub at "+filepath.Join(home, "cache", "askbridge", "hub.inbox.sock")+": start one with `askbridge hub`")
}

// On a terminal the inbox asks with the interactive prompter (tmux as the
// terminal): the set is headed by agent, folder and editor, arrows and
// Enter answer it at the hub; Esc skips a set, which keeps waiting.
func TestE2EInboxOnATerminal(t *testing.T) {
	s := newTTY(t)
	dir, err := os.MkdirTemp("", "abinboxt")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "hub.sock")
	t.Setenv("ASKBRIDGE_HUB", sock)
	t.Setenv("ASKBRIDGE_HUB_TOKEN", "") // the inbox needs none
	h := startHubProc(t, sock)

	c := startClient(t)
	sess := c.hubSetup(dir)
	c.prompt(sess, "_askbridge/ask", map[string]any{"questions": []any{question("Deploy now?", "Deploy", false, "yes", "no")}})
	c.permissionRequest()
	h.waitSets(1, 5*time.Second)

	s.run(100, "inbox --hub "+sock)
	screen := s.waitScreen("> yes")
	assert.Contains(t, screen, "── scripted-agent · "+dir+" · Zed")
	assert.Contains(t, screen, "Deploy now?")
	s.press("Down", "> no")
	s.key("Enter")
	assert.Contains(t, s.result(), "EXIT=0")
	assert.Contains(t, c.agentSaw(), `"Deploy now?":"no"`)
	h.waitSets(0, 5*time.Second)

	c.prompt(sess, "_askbridge/ask", map[string]any{"questions": []any{question("Later?", "Later", false, "yes", "no")}})
	req := c.permissionRequest()
	h.waitSets(1, 5*time.Second)
	s2 := newTTY(t)
	s2.run(100, "inbox --hub "+sock)
	s2.waitScreen("> yes")
	s2.waitScreen("Esc skip") // the help line says what Esc does here
	s2.key("Escape")
	assert.Contains(t, s2.result(), "EXIT=0")
	screen = s2.waitScreen("↷ skipped")
	assert.Contains(t, screen, "↷ skipped")
	assert.NotContains(t, screen, "cancel")
	assert.Contains(t, screen, "Skipped; it keeps waiting for an answer.")
	h.waitSets(1, 5*time.Second)
	c.reply(req, `{"outcome":{"outcome":"selected","optionId":"yes"}}`)
	assert.Contains(t, c.agentSaw(), `"Later?":"yes"`)
}
