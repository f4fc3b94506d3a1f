//go:build unix

package ctty

import (
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/askbridge/askbridge/testkit/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The container's init uses this package before most of askbridge is
// initialized, and the relay may import it: it imports syscall alone.
func TestCttyImportsOnlySyscall(t *testing.T) {
	for _, imp := range testenv.Imports(t, ".") {
		if imp.Path != "syscall" {
			t.Errorf("%s imports %s", imp.File, imp.Path)
		}
	}
}

// A process in a session of its own has no controlling terminal, so Has
// says no there, and Leave then keeps the agent in askbridge's session.
func TestANewSessionHasNoTerminal(t *testing.T) {
	if os.Getenv("CTTY_CHILD") == "1" {
		var attr syscall.SysProcAttr
		Leave(&attr)
		if Has() || attr.Setsid || !attr.Setpgid {
			os.Exit(3)
		}
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestANewSessionHasNoTerminal$")
	cmd.Env = append(os.Environ(), "CTTY_CHILD=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.WaitDelay = 10 * time.Second
	require.NoError(t, cmd.Start())
	err := cmd.Wait()
	assert.NoError(t, err, "the child in a new session said it has a terminal")
}
