package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Through the binary: --notify-url's topic and the environment's ntfy
// token go to a file of mode 0600, never into the unit's command line.
func TestHubPrintUnitKeepsSecretsOffTheCommandLine(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("no unit on Windows")
	}
	config := t.TempDir()
	cmd := exec.Command(askbridgeBin, "hub", "--print-unit", "--notify", "--notify-url", "https://ntfy.sh/s3cret-topic")
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+config, "HOME="+config, "ASKBRIDGE_NOTIFY_TOKEN=tk_s3cret", "ASKBRIDGE_NOTIFY_URL=")
	out, err := cmd.Output()
	require.NoError(t, err)
	unit := string(out)
	assert.NotContains(t, unit, "s3cret")
	assert.NotContains(t, unit, "notify-url")
	assert.Contains(t, unit, "hub --notify=true")
	file := filepath.Join(config, "askbridge", "hub.env")
	if runtime.GOOS == "darwin" {
		file = filepath.Join(config, "Library", "Application Support", "askbridge", "hub.env")
	}
	assert.Contains(t, unit, file)
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	topic := filepath.Join(filepath.Dir(file), "notify-url")
	assert.Contains(t, string(b), "\nASKBRIDGE_NOTIFY_URL='@"+topic+"'\n", "the environment names the topic's file only")
	assert.NotContains(t, string(b), "s3cret-topic")
	tb, err := os.ReadFile(topic)
	require.NoError(t, err)
	assert.Equal(t, "https://ntfy.sh/s3cret-topic\n", string(tb))
	st, err := os.Stat(topic)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	assert.Contains(t, string(b), "\nASKBRIDGE_NOTIFY_TOKEN='tk_s3cret'\n")
	st, err = os.Stat(file)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	if runtime.GOOS != "linux" {
		return
	}
	// systemd reads the file as sh does: the same variables.
	sh := exec.Command("/bin/sh", "-c", `set -a; . "$0"; set +a; printf '%s\n' "$ASKBRIDGE_NOTIFY_URL"`, file)
	got, err := sh.Output()
	require.NoError(t, err)
	assert.Equal(t, "@"+topic+"\n", string(got))
}
