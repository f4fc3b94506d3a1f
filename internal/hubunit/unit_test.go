package hubunit

import (
	"encoding/xml"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The systemd unit runs the hub with the flags given, each one word as
// systemd splits ExecStart, % and $ taken literally.
func TestHubUnitSystemd(t *testing.T) {
	unit, err := Text("linux", "/opt/ask bridge/askbridge", []string{"--notify=true", `--on-question=echo "$X" 50% >> log`}, "/home/u", "")
	require.NoError(t, err)
	assert.Contains(t, unit, "\nExecStart=\"/opt/ask bridge/askbridge\" hub --notify=true \"--on-question=echo \\\"$$X\\\" 50%% >> log\"\n")
	assert.Contains(t, unit, "[Install]\nWantedBy=default.target\n")
	assert.Contains(t, unit, "Restart=on-failure")
}

// The launchd agent is a well-formed plist whose ProgramArguments are the
// hub's command line, escaped.
func TestHubUnitLaunchd(t *testing.T) {
	unit, err := Text("darwin", "/usr/local/bin/askbridge", []string{"--on-question=a < b & c"}, "/Users/u", "")
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
	assert.Equal(t, []string{launchdLabel, "/Users/u/Library/Logs/askbridge-hub.log"}, plist.Dict.Strings)
	assert.Contains(t, plist.Dict.Keys, "RunAtLoad")
}

func TestHubUnitWindows(t *testing.T) {
	_, err := Text("windows", `C:\askbridge.exe`, nil, `C:\Users\u`, "")
	assert.ErrorContains(t, err, "Task Scheduler")
}

// The unit reads its secrets from an environment file: systemd's
// EnvironmentFile, sh's "." for launchd, which has none.
func TestHubUnitReadsAnEnvironmentFile(t *testing.T) {
	unit, err := Text("linux", "/usr/bin/askbridge", []string{"--notify=true"}, "/home/u", "/home/u/.config/askbridge/hub.env")
	require.NoError(t, err)
	assert.Contains(t, unit, "\nEnvironmentFile=/home/u/.config/askbridge/hub.env\nExecStart=/usr/bin/askbridge hub --notify=true\n")
	plist, err := Text("darwin", "/usr/local/bin/askbridge", nil, "/Users/u", "/Users/u/Library/Application Support/askbridge/hub.env")
	require.NoError(t, err)
	assert.Contains(t, plist, "<string>/bin/sh</string>\n\t\t<string>-c</string>\n\t\t<string>set -a; . &#34;$0&#34;; set +a; exec &#34;$@&#34;</string>\n\t\t<string>/Users/u/Library/Application Support/askbridge/hub.env</string>\n\t\t<string>/usr/local/bin/askbridge</string>\n\t\t<string>hub</string>\n")
}
