//go:build unix && !darwin

package notify

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

// sessionBusForTest starts a session bus of the test's own (Debian's
// dbus-daemon), points DBUS_SESSION_BUS_ADDRESS at it and returns it.
func sessionBusForTest(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("dbus-daemon")
	require.NoError(t, err, "the D-Bus tests need dbus-daemon (Debian: apt-get install dbus-daemon)")
	cmd := exec.Command(path, "--session", "--print-address", "--nofork")
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(out).ReadString('\n')
		lines <- strings.TrimSpace(line)
	}()
	select {
	case addr := <-lines:
		require.NotEmpty(t, addr)
		t.Setenv("DBUS_SESSION_BUS_ADDRESS", addr)
		return addr
	case <-time.After(10 * time.Second):
		t.Fatal("dbus-daemon printed no address")
		return ""
	}
}

// notifyCall is one call of the fake Notifications service.
type notifyCall struct {
	app, summary, body string
	hints              map[string]dbus.Variant
	timeout            int32
}

// fakeNotifications is org.freedesktop.Notifications as the test serves it.
type fakeNotifications struct {
	mu    sync.Mutex
	calls []notifyCall
	fail  bool
}

func (f *fakeNotifications) Notify(app string, replaces uint32, icon, summary, body string, actions []string, hints map[string]dbus.Variant, timeout int32) (uint32, *dbus.Error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fail {
		return 0, dbus.NewError("org.freedesktop.DBus.Error.Failed", []any{"the display is gone"})
	}
	f.calls = append(f.calls, notifyCall{app: app, summary: summary, body: body, hints: hints, timeout: timeout})
	return uint32(len(f.calls)), nil
}

func (f *fakeNotifications) got() []notifyCall {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]notifyCall(nil), f.calls...)
}

// serveNotifications registers a fake Notifications service on the bus.
// With fail, every call fails.
func serveNotifications(t *testing.T, addr string, fail bool) *fakeNotifications {
	t.Helper()
	conn, err := dbus.Connect(addr)
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	f := &fakeNotifications{fail: fail}
	require.NoError(t, conn.Export(f, notifyPath, notifyName))
	reply, err := conn.RequestName(notifyName, dbus.NameFlagDoNotQueue)
	require.NoError(t, err)
	require.Equal(t, dbus.RequestNameReplyPrimaryOwner, reply)
	return f
}

// watchArgv scans every process's command line until stop, and returns
// those that held marker.
func watchArgv(marker string) (stop func() []string) {
	done := make(chan struct{})
	var seen []string
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		for {
			files, _ := filepath.Glob("/proc/[0-9]*/cmdline")
			for _, f := range files {
				if b, err := os.ReadFile(f); err == nil && bytes.Contains(b, []byte(marker)) {
					seen = append(seen, f+": "+string(bytes.ReplaceAll(b, []byte{0}, []byte{' '})))
				}
			}
			select {
			case <-done:
				return
			default:
			}
		}
	}()
	return func() []string { close(done); <-finished; return seen }
}

// A waiting question is shown through the session bus's Notifications
// service: titled with its header and question, its options and the page
// in the body (markup escaped), normal urgency. No process's command line
// holds any of its text, nor the page's address; an answer shows nothing.
func TestDesktopNotifiesOverDBus(t *testing.T) {
	addr := sessionBusForTest(t)
	f := serveNotifications(t, addr, false)
	t.Setenv("PATH", t.TempDir()) // no notify-send to fall back on
	const marker = "m4rker-q7"
	stop := watchArgv(marker)
	b := permission.NewBoard()
	start(t, b, Options{Desktop: true, DeskURL: "http://127.0.0.1:7777/" + marker + "/?token=" + marker})
	tk := ask(b, "s", question("Use <T> & generics "+marker+"?", "Generics", "Yes", "No"), question("Which CI?", "CI", "GitHub", "GitLab"))
	eventually(t, 5*time.Second, "Notify is called", func() bool { return len(f.got()) == 1 })
	seen := stop()
	assert.Empty(t, seen, "a command line held the notification's text")
	c := f.got()[0]
	assert.Equal(t, "askbridge", c.app)
	assert.Equal(t, "Generics: Use <T> & generics "+marker+"? (+1 more)", c.summary)
	assert.Contains(t, c.body, "  - Yes: about Yes")
	assert.Contains(t, c.body, "CI: Which CI?")
	assert.Contains(t, c.body, "Answer at the desk: http://127.0.0.1:7777/"+marker+"/")
	assert.NotContains(t, c.body, "token=")
	assert.NotContains(t, c.body, "<T>", "the body is markup: escaped")
	assert.Equal(t, dbus.MakeVariant(byte(1)), c.hints["urgency"])
	assert.Equal(t, int32(-1), c.timeout)

	require.NoError(t, b.Settle(tk.ID, permission.Result{}, permission.ByEditor()))
	time.Sleep(200 * time.Millisecond)
	assert.Len(t, f.got(), 1, "an answer raises no notification")
}

// A service that fails, or a bus without one, is logged with its words.
func TestDesktopFailureIsLogged(t *testing.T) {
	addr := sessionBusForTest(t)
	b := permission.NewBoard()
	log, out := newLogger()
	start(t, b, Options{Desktop: true, Logger: log})
	ask(b, "s", question("Q?", "H", "a", "b"))
	eventually(t, 5*time.Second, "no service is logged", func() bool { return out.count("desktop notification failed") == 1 })
	assert.Contains(t, out.String(), notifyName)

	serveNotifications(t, addr, true)
	ask(b, "s", question("Q2?", "H", "a", "b"))
	eventually(t, 5*time.Second, "the failure is logged", func() bool { return out.count("desktop notification failed") == 2 })
	assert.Contains(t, out.String(), "the display is gone")
}
