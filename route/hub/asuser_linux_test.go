package hub

import (
	"os"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/testkit/testenv"
)

// roleEnv makes the test binary play one part of an attack (TestRole).
const roleEnv = "ASKBRIDGE_TEST_ROLE"

// asUser runs TestRole as role, as uid (an ordinary user: the suite runs
// as root in CI, and root sees through what an ordinary hub cannot), this
// test binary copied where that uid can run it, and returns its output.
func asUser(t *testing.T, uid int, role string, env ...string) string {
	cmd := testenv.AsUser(t, uid, "TestRole")
	cmd.Env = append(os.Environ(), append(env, roleEnv+"="+role, keepConfigEnv+"=", "HOME=/tmp")...)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	return string(out)
}

// child runs TestRole as role in a child of this process, with env.
func child(role string, env ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^TestRole$", "-test.v")
	cmd.Env = append(os.Environ(), append(env, roleEnv+"="+role)...)
	return cmd
}

// TestRole is a part of an attack; it runs only with roleEnv set.
func TestRole(t *testing.T) {
	role := os.Getenv(roleEnv)
	if role == "" {
		t.Skip("a part an attack test plays in a process of its own")
	}
	fn, ok := roles[role]
	require.True(t, ok, "no role %q", role)
	fn(t)
}

// roles are the parts, by name (filled by the attack tests' init).
var roles = map[string]func(*testing.T){}
