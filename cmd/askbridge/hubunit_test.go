package main

import (
	"context"
	"encoding/xml"
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

// The systemd unit runs the hub with the flags given, each one word as
// systemd splits ExecStart, % and $ taken literally.
func TestHubUnitSystemd(t *testing.T) {
	unit, err := hubUnit("linux", "/opt/ask bridge/askbridge", []string{"--notify=true", `--on-question=echo "$X" 50% >> log`}, "/home/u", "")
	require.NoError(t, err)
	assert.Contains(t, unit, "\nExecStart=\"/opt/ask bridge/askbridge\" hub --notify=true \"--on-question=echo \\\"$$X\\\" 50%% >> log\"\n")
	assert.Contains(t, unit, "[Install]\nWantedBy=default.target\n")
	assert.Contains(t, unit, "Restart=on-failure")
}

// The launchd agent is a well-formed plist whose ProgramArguments are the
// hub's command line, escaped.
func TestHubUnitLaunchd(t *testing.T) {
	unit, err := hubUnit("darwin", "/usr/local/bin/askbridge", []string{"--on-question=a < b & c"}, "/Users/u", "")
	require.NoError(t, err)
	var plist struct {
		Dict struct {
			Keys    []string `xml:"key"`
			Strings []string `xml:"string"`
			Array   struct {
				Strings []string `xml:"string"`
			} `xml:"array"`
		} `xml:"dict"`
	}
	require.NoError(t, xml.Unmarshal([]byte(unit), &plist), unit)
	assert.Equal(t, []string{"/usr/local/bin/askbridge", "hub", "--on-question=a < b & c"}, plist.Dict.Array.Strings)
	assert.Equal(t, []string{hubLaunchdLabel, "/Users/u/Library/Logs/askbridge-hub.log"}, plist.Dict.Strings)
	assert.Contains(t, plist.Dict.Keys, "RunAtLoad")
}

func TestHubUnitWindows(t *testing.T) {
	_, err := hubUnit("windows", `C:\askbridge.exe`, nil, `C:\Users\u`, "")
	assert.ErrorContains(t, err, "Task Scheduler")
}

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
