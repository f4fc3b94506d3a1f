package desk

import (
	"os"
	"os/exec"
	"testing"

	"github.com/askbridge/askbridge/testkit/testenv"
)

// roleEnv names the test a child copy of this binary runs, as asUser's.
const roleEnv = "ASKBRIDGE_TEST_DESK_ROLE"

// asUser is this test binary, copied where any user can run it, set to
// run test (which acts only with roleEnv set) as uid: an ordinary user,
// not root, whatever runs the suite. It needs root to start.
func asUser(t *testing.T, uid uint32, test string, env ...string) *exec.Cmd {
	t.Helper()
	cmd := testenv.AsUser(t, int(uid), test)
	cmd.Env = append(append(os.Environ(), roleEnv+"="+test), env...)
	return cmd
}

// role skips a test that is only some asUser's child.
func role(t *testing.T) {
	if os.Getenv(roleEnv) != t.Name() {
		t.Skip("the child of a test run as another user")
	}
}
