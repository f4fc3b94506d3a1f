package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Through the binary: the unit names the binary itself and keeps the
// flags, not --print-unit.
func TestHubPrintUnit(t *testing.T) {
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
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Log("no systemd-analyze: the unit is not verified by systemd")
		return
	}
	unit := filepath.Join(t.TempDir(), "askbridge-hub.service")
	require.NoError(t, os.WriteFile(unit, out, 0o600))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	msg, err := exec.CommandContext(ctx, analyze, "verify", unit).CombinedOutput()
	assert.NoError(t, err, "systemd-analyze verify: %s", msg)
}
