//go:build unix

package harness

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/askbridge/askbridge/internal/pty"
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
	return ExecOn(t, a, modelURL, argv, timeout, nil)
}

// ExecOn is Exec with a terminal of the command's own (Linux) when term is
// set: what it and its children show there (the desk's pairing code) is
// written to term as it comes.
func ExecOn(t testing.TB, a Agent, modelURL string, argv []string, timeout time.Duration, term *Screen) Output {
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
	if term == nil {
		err = cmd.Run()
	} else {
		cmd.Stdin = strings.NewReader("")
		var tty *os.File
		if tty, err = pty.Start(cmd); err != nil {
			t.Fatalf("starting %s on a terminal: %v", argv[0], err)
		}
		go serveTerminal(tty, term)
		err = cmd.Wait()
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	for _, pid := range markedPIDs(marker) {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	return Output{Stdout: stdout.String(), Stderr: stderr.String(), Err: err}
}
