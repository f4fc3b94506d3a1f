package desk

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// roleEnv names the test a child copy of this binary runs, as asUser's.
const roleEnv = "ASKBRIDGE_TEST_DESK_ROLE"

// asUser is this test binary, copied where any user can run it, set to
// run test (which acts only with roleEnv set) as uid: an ordinary user,
// not root, whatever runs the suite. It needs root to start.
func asUser(t *testing.T, uid uint32, test string, env ...string) *exec.Cmd {
	t.Helper()
	if os.Getuid() != 0 {
		t.Skip("needs root, to run the users of the test")
	}
	bin := filepath.Join(t.TempDir(), "desk.test")
	b, err := os.ReadFile(os.Args[0])
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(bin, b, 0o755))
	for dir := filepath.Dir(bin); dir != "/tmp" && dir != "/"; dir = filepath.Dir(dir) {
		os.Chmod(dir, 0o755)
	}
	cmd := exec.Command(bin, "-test.run=^"+test+"$", "-test.v")
	cmd.Env = append(append(os.Environ(), roleEnv+"="+test), env...)
	cmd.Dir = filepath.Dir(bin)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: uid}}
	return cmd
}

// role skips a test that is only some asUser's child.
func role(t *testing.T) {
	if os.Getenv(roleEnv) != t.Name() {
		t.Skip("the child of a test run as another user")
	}
}
