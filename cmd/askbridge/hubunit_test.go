package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Through the binary: the unit names the binary itself and keeps the
// flags, not --print-unit; on Linux it is a socket unit that holds both
// loopback families of the page's port and the service it hands them to,
// each under the name to save it as, then the commands that enable them.
func TestHubPrintUnit(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("no unit on Windows")
	}
	out, err := exec.Command(askbridgeBin, "hub", "--print-unit", "--listen", "127.0.0.1:7700", "--notify", "--on-question", `echo "$ASKBRIDGE_EVENT" 50%`).Output()
	require.NoError(t, err)
	assert.Contains(t, string(out), "hub --listen=127.0.0.1:7700 --notify=true")
	assert.NotContains(t, string(out), "print-unit")
	assert.True(t, strings.Contains(string(out), "askbridge"), "the binary's own path")
	if runtime.GOOS != "linux" {
		return
	}
	files := splitUnits(t, string(out))
	require.Len(t, files, 2, string(out))
	socket, service := files["askbridge-hub.socket"], files["askbridge-hub.service"]
	assert.Contains(t, socket, "\n[Socket]\nListenStream=127.0.0.1:7700\nListenStream=[::1]:7700\n")
	assert.Contains(t, service, "\nRequires=askbridge-hub.socket\n")
	assert.Contains(t, string(out), "\n# then run\n#   systemctl --user daemon-reload\n#   systemctl --user enable --now askbridge-hub.socket askbridge-hub.service\n")
	dir := t.TempDir()
	for name, text := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600))
	}
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Log("no systemd-analyze: the units are checked for their shape only")
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	msg, err := exec.CommandContext(ctx, analyze, "verify", filepath.Join(dir, "askbridge-hub.socket"), filepath.Join(dir, "askbridge-hub.service")).CombinedOutput()
	assert.NoError(t, err, "systemd-analyze verify: %s", msg)
}

// unitLine is a line a unit file takes: a comment, a section or a setting.
var unitLine = regexp.MustCompile(`^(|#.*|\[[A-Z][a-zA-Z]*\]|[A-Z][A-Za-z0-9]*=.*)$`)

// splitUnits are the files --print-unit printed, by base name: each starts
// at a "# save as PATH" line (the user's systemd folder) and ends at the
// next, or at "# then run".
func splitUnits(t *testing.T, out string) map[string]string {
	t.Helper()
	config, err := os.UserConfigDir()
	require.NoError(t, err)
	files := map[string]string{}
	name := ""
	for _, line := range strings.SplitAfter(out, "\n") {
		switch path, ok := strings.CutPrefix(line, "# save as "); {
		case ok:
			path = strings.TrimSuffix(path, "\n")
			assert.Equal(t, filepath.Join(config, "systemd", "user"), filepath.Dir(path))
			name = filepath.Base(path)
		case strings.HasPrefix(line, "# then run"):
			name = ""
		}
		assert.Regexp(t, unitLine, strings.TrimSuffix(line, "\n"))
		if name != "" {
			files[name] += line
		}
	}
	return files
}
