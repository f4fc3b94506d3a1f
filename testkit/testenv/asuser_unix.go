//go:build unix

package testenv

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// AsUser returns a command that runs test, one test of this test binary,
// as uid (and gid uid): an ordinary user, not root, whatever runs the
// suite, for the security tests that must fail before their fix as such a
// user would see it. The binary is copied to a new folder that user can
// reach, the command runs there in a process group of its own, and it is
// killed, group and all, after two minutes or when the test ends. Only
// root can start a process as another user: the test skips otherwise.
func AsUser(t testing.TB, uid int, test string) *exec.Cmd {
	t.Helper()
	if os.Getuid() != 0 {
		t.Skip("needs root, to run a part of the test as another, ordinary user")
	}
	bin := filepath.Join(t.TempDir(), filepath.Base(os.Args[0]))
	CopyExecutable(t, os.Args[0], bin)
	for dir := filepath.Dir(bin); dir != os.TempDir() && dir != "/"; dir = filepath.Dir(dir) {
		os.Chmod(dir, 0o755)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, bin, "-test.run=^"+test+"$", "-test.v")
	cmd.Dir = filepath.Dir(bin)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid)}, Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	return cmd
}
