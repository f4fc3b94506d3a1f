package activation

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// childEnv makes the test binary print what Listeners takes (TestChild).
const childEnv = "ASKBRIDGE_TEST_ACTIVATION_CHILD"

// Run as a child with sockets at fds 3 and on, as systemd hands them:
// taken when LISTEN_PID is the child's own, left alone when it names
// another process, and the variables gone either way, so that no child of
// the hub's takes them.
func TestListeners(t *testing.T) {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	f, err := ln.(*net.TCPListener).File()
	require.NoError(t, err)
	defer f.Close()
	run := func(pid string) string {
		script := `export LISTEN_PID=` + pid + `; exec "$0" -test.run=^TestChild$`
		cmd := exec.Command("/bin/sh", "-c", script, os.Args[0])
		cmd.Env = append(os.Environ(), childEnv+"=1", "LISTEN_FDS=1", "LISTEN_FDNAMES=askbridge-hub")
		cmd.ExtraFiles = []*os.File{f}
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, string(out))
		return string(out)
	}
	assert.Contains(t, run("$$"), "took "+ln.Addr().String()+"; left LISTEN_PID= LISTEN_FDS= LISTEN_FDNAMES=\n")
	assert.Contains(t, run("1"), "took none; left LISTEN_PID= LISTEN_FDS= LISTEN_FDNAMES=\n")
}

// TestChild is TestListeners' child; it runs only with childEnv set.
func TestChild(t *testing.T) {
	if os.Getenv(childEnv) == "" {
		t.Skip("TestListeners' child")
	}
	lns, err := Listeners()
	require.NoError(t, err)
	var took []string
	for _, ln := range lns {
		took = append(took, ln.Addr().String())
		ln.Close()
	}
	if len(took) == 0 {
		took = []string{"none"}
	}
	fmt.Printf("took %s; left LISTEN_PID=%s LISTEN_FDS=%s LISTEN_FDNAMES=%s\n", strings.Join(took, ", "), os.Getenv("LISTEN_PID"), os.Getenv("LISTEN_FDS"), os.Getenv("LISTEN_FDNAMES"))
}
