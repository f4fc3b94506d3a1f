//go:build unix

package harness

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// Output is what a finished command printed.
type Output struct {
	Stdout, Stderr string
	Err            error // the exit status, or the timeout
}

// Exec runs argv to completion with agent a's environment (its own HOME,
// a pointing at the fake model at modelURL), as a real ACP client such as
// acpx would be run: the client then starts the agent itself. Every
// process it leaves behind is killed.
func Exec(t testing.TB, a Agent, modelURL string, argv []string, timeout time.Duration) Output {
	t.Helper()
	if err := Installed(); err != nil {
		t.Fatal(err)
	}
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	home := t.TempDir()
	env, err := a.Setup(home, modelURL)
	if err != nil {
		t.Fatalf("setting up %s: %v", a.Name, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	marker := newMarker()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = home
	cmd.Env = append(append(hostEnv(), "HOME="+home, "ASKBRIDGE_LIVE_RUN="+marker,
		"PATH="+filepath.Join(LiveDir(), "node_modules/.bin")+":"+pathEnv()), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	for _, pid := range markedPIDs(marker) {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	return Output{Stdout: stdout.String(), Stderr: stderr.String(), Err: err}
}
