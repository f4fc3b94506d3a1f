package hubunit

import (
	"encoding/xml"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// units is Text's files for linux by name, for the tests.
func units(t *testing.T, listen string, args []string, envFile string) (socket, service string) {
	t.Helper()
	files, err := Text("linux", "/opt/ask bridge/askbridge", listen, args, "/home/u", "/home/u/.config", envFile)
	require.NoError(t, err)
	require.Len(t, files, 2)
	assert.Equal(t, "/home/u/.config/systemd/user/askbridge-hub.socket", files[0].Path)
	assert.Equal(t, "/home/u/.config/systemd/user/askbridge-hub.service", files[1].Path)
	return files[0].Text, files[1].Text
}

// The systemd service runs the hub with the flags given, each one word as
// systemd splits ExecStart, % and $ taken literally, on its socket.
func TestHubUnitSystemd(t *testing.T) {
	_, unit := units(t, "127.0.0.1:7683", []string{"--notify=true", `--on-question=echo "$X" 50% >> log`}, "")
	assert.Contains(t, unit, "\nExecStart=\"/opt/ask bridge/askbridge\" hub --notify=true \"--on-question=echo \\\"$$X\\\" 50%% >> log\"\n")
	assert.Contains(t, unit, "[Install]\nWantedBy=default.target\nAlso=askbridge-hub.socket\n")
	assert.Contains(t, unit, "\nRequires=askbridge-hub.socket\nAfter=askbridge-hub.socket\n")
	assert.Contains(t, unit, "Restart=on-failure")
}

// The socket unit holds what the hub would bind itself: both loopback
// families for a loopback --listen, else the address itself.
func TestHubUnitSocket(t *testing.T) {
	for listen, want := range map[string]string{
		"127.0.0.1:7683": "ListenStream=127.0.0.1:7683\nListenStream=[::1]:7683\nBindIPv6Only=ipv6-only\n",
		"localhost:7700": "ListenStream=127.0.0.1:7700\nListenStream=[::1]:7700\nBindIPv6Only=ipv6-only\n",
		"[::1]:7683":     "ListenStream=127.0.0.1:7683\nListenStream=[::1]:7683\nBindIPv6Only=ipv6-only\n",
		"0.0.0.0:7683":   "ListenStream=0.0.0.0:7683\nFileDescriptorName",
		":7683":          "ListenStream=[::]:7683\nBindIPv6Only=both\n",
		"100.64.1.2:80":  "ListenStream=100.64.1.2:80\nFileDescriptorName",
	} {
		socket, _ := units(t, listen, nil, "")
		assert.Contains(t, socket, "\n[Socket]\n"+want, listen)
		assert.Contains(t, socket, "FileDescriptorName=askbridge-hub\n\n[Install]\nWantedBy=sockets.target\n", listen)
	}
	for listen, want := range map[string]string{
		"127.0.0.1:0":       "a fixed one (e.g. 127.0.0.1:7683)",
		"laptop.ts.net:443": "names a host",
		"7683":              "want host:port",
	} {
		_, err := Text("linux", "/usr/bin/askbridge", listen, nil, "/home/u", "/home/u/.config", "")
		assert.ErrorContains(t, err, want, listen)
	}
}

// The launchd agent is a well-formed plist whose ProgramArguments are the
// hub's command line, escaped.
func TestHubUnitLaunchd(t *testing.T) {
	files, err := Text("darwin", "/usr/local/bin/askbridge", "127.0.0.1:7683", []string{"--on-question=a < b & c"}, "/Users/u", "/Users/u/Library/Application Support", "")
	require.NoError(t, err)
	require.Len(t, files, 1)
	assert.Equal(t, "/Users/u/Library/LaunchAgents/io.github.askbridge.hub.plist", files[0].Path)
	var plist struct {
		Dict struct {
			Keys    []string `xml:"key"`
			Strings []string `xml:"string"`
			Array   struct {
				Strings []string `xml:"string"`
			} `xml:"array"`
		} `xml:"dict"`
	}
	require.NoError(t, xml.Unmarshal([]byte(files[0].Text), &plist), files[0].Text)
	assert.Equal(t, []string{"/usr/local/bin/askbridge", "hub", "--on-question=a < b & c"}, plist.Dict.Array.Strings)
	assert.Equal(t, []string{launchdLabel, "/Users/u/Library/Logs/askbridge-hub.log"}, plist.Dict.Strings)
	assert.Contains(t, plist.Dict.Keys, "RunAtLoad")
}

func TestHubUnitWindows(t *testing.T) {
	_, err := Text("windows", `C:\askbridge.exe`, "127.0.0.1:7683", nil, `C:\Users\u`, `C:\Users\u\AppData\Roaming`, "")
	assert.ErrorContains(t, err, "Task Scheduler")
}

// The unit reads its secrets from an environment file: systemd's
// EnvironmentFile, sh's "." for launchd, which has none.
func TestHubUnitReadsAnEnvironmentFile(t *testing.T) {
	_, unit := units(t, "127.0.0.1:7683", []string{"--notify=true"}, "/home/u/.config/askbridge/hub.env")
	assert.Contains(t, unit, "\nEnvironmentFile=/home/u/.config/askbridge/hub.env\nExecStart=\"/opt/ask bridge/askbridge\" hub --notify=true\n")
	files, err := Text("darwin", "/usr/local/bin/askbridge", "127.0.0.1:7683", nil, "/Users/u", "/Users/u/Library/Application Support", "/Users/u/Library/Application Support/askbridge/hub.env")
	require.NoError(t, err)
	assert.Contains(t, files[0].Text, "<string>/bin/sh</string>\n\t\t<string>-c</string>\n\t\t<string>set -a; . &#34;$0&#34;; set +a; exec &#34;$@&#34;</string>\n\t\t<string>/Users/u/Library/Application Support/askbridge/hub.env</string>\n\t\t<string>/usr/local/bin/askbridge</string>\n\t\t<string>hub</string>\n")
}
