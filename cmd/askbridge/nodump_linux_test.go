package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/testkit/testenv"
)

// The agent runs as the same user as askbridge, and Linux lets a process
// read the environment of another of its user's from /proc/<pid>/environ:
// askbridge's, with the desk's token, unless askbridge is not dumpable.
// Root may read anything, so as root the test runs askbridge as nobody.
func TestAgentCannotReadAskbridgesEnviron(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	require.NoError(t, os.Chmod(dir, 0o777))
	require.NoError(t, os.Chmod(filepath.Dir(dir), 0o755)) // t.TempDir's own
	bin := filepath.Join(dir, "askbridge")
	testenv.CopyExecutable(t, askbridgeBin, bin)
	out := filepath.Join(dir, "agent-read")

	cmd := exec.Command(bin, "--", "sh", "-c", `cat /proc/$PPID/environ >"$OUT" 2>&1; echo done >>"$OUT"; sleep 30`)
	cmd.Env = []string{"PATH=/usr/bin:/bin", "OUT=" + out, "ASKBRIDGE_DESK_TOKEN=desk-secret-0123456789", "GORACE=atexit_sleep_ms=0"}
	if os.Getuid() == 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	}
	in, err := cmd.StdinPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		in.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	var read string
	for deadline := time.Now().Add(20 * time.Second); !strings.Contains(read, "done"); time.Sleep(20 * time.Millisecond) {
		require.True(t, time.Now().Before(deadline), "the agent never ran: %q", read)
		b, _ := os.ReadFile(out)
		read = string(b)
	}
	assert.NotContains(t, read, "desk-secret-0123456789")
	assert.Contains(t, read, "Permission denied")
}
