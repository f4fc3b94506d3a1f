//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A second hub on the same socket says where the first serves its page
// (its address only, no credential), and exits 1.
func TestSecondHubNamesWhereTheFirstServes(t *testing.T) {
	t.Parallel()
	dir, err := os.MkdirTemp("", "abhub2")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "hub.sock")
	h := startHubProc(t, sock)

	cmd := exec.Command(askbridgeBin, "hub", "--listen", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), "ASKBRIDGE_HUB="+sock, "GORACE=atexit_sleep_ms=0", "XDG_STATE_HOME="+filepath.Join(dir, "state2"))
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, string(out))
	assert.Equal(t, 1, exit.ExitCode())
	assert.Contains(t, string(out), "its page is at "+h.url+"/\n")
	assert.NotContains(t, string(out), "token", "no credential")
}
