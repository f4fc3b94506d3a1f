package notify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askbridge/askbridge/permission"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeNotifier puts a script called name on an otherwise empty PATH; each
// call writes its arguments, one a line, to a file of its own in dir.
func fakeNotifier(t *testing.T, name, extra string) (dir string) {
	dir = t.TempDir()
	bin := filepath.Join(dir, "bin")
	require.NoError(t, os.Mkdir(bin, 0o755))
	// Written aside and moved, so that a reader never sees half a call.
	script := "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > \"" + dir + "/tmp.$$\"\n" +
		"/bin/mv \"" + dir + "/tmp.$$\" \"" + dir + "/call.$$\"\n" + extra
	require.NoError(t, os.WriteFile(filepath.Join(bin, name), []byte(script), 0o755))
	t.Setenv("PATH", bin)
	return dir
}

// calls returns the arguments of every call so far.
func calls(t *testing.T, dir string) [][]string {
	files, _ := filepath.Glob(filepath.Join(dir, "call.*"))
	var out [][]string
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		out = append(out, strings.Split(strings.TrimSuffix(string(b), "\n"), "\n"))
	}
	return out
}

// Without a notifier on PATH, --notify says so once and does nothing else.
func TestDesktopWithoutNotifierLogsOnce(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	b := permission.NewBoard()
	log, out := newLogger()
	start(t, b, Options{Desktop: true, Logger: log, goos: "linux"})
	for range 3 {
		tk := ask(b, "s", question("Q?", "H", "a", "b"))
		require.NoError(t, b.Answer(tk.ID, permission.Result{}))
	}
	time.Sleep(100 * time.Millisecond)
	assert.Equal(t, 1, out.count("no desktop notifier"), out.String())
	assert.Equal(t, 1, out.count("level="), "nothing else is logged: %s", out.String())
	assert.Contains(t, out.String(), "notify-send is not on PATH")
}

// With notify-send on PATH, a waiting question raises one notification
// titled with its header and question, the desk link in the body; its
// answer raises none.
func TestDesktopCallsNotifySend(t *testing.T) {
	dir := fakeNotifier(t, "notify-send", "")
	b := permission.NewBoard()
	start(t, b, Options{Desktop: true, DeskURL: deskURL, goos: "linux"})
	tk := ask(b, "s", question("Use <T> & generics?", "Generics", "Yes", "No"), question("Which CI?", "CI", "GitHub", "GitLab"))
	eventually(t, time.Second, "notify-send is called", func() bool { return len(calls(t, dir)) == 1 })
	args := calls(t, dir)[0]
	assert.Equal(t, []string{"--app-name=askbridge", "--urgency=normal", "--", "Generics: Use <T> & generics? (+1 more)"}, args[:4])
	body := strings.Join(args[4:], "\n")
	assert.Contains(t, body, "  - Yes: about Yes")
	assert.Contains(t, body, "CI: Which CI?")
	assert.Contains(t, body, "Answer at the desk: "+deskURL)
	assert.NotContains(t, body, "<T>", "the body is markup: escaped")

	require.NoError(t, b.Answer(tk.ID, permission.Result{}))
	time.Sleep(200 * time.Millisecond)
	assert.Len(t, calls(t, dir), 1, "an answer raises no notification")
}

// A notifier that fails (no display, no D-Bus) is logged with its words.
func TestDesktopFailureIsLogged(t *testing.T) {
	fakeNotifier(t, "notify-send", "echo 'Cannot autolaunch D-Bus without X11 $DISPLAY' >&2; exit 1\n")
	b := permission.NewBoard()
	log, out := newLogger()
	start(t, b, Options{Desktop: true, Logger: log, goos: "linux"})
	ask(b, "s", question("Q?", "H", "a", "b"))
	eventually(t, 2*time.Second, "the failure is logged", func() bool { return out.count("desktop notification failed") == 1 })
	assert.Contains(t, out.String(), "Cannot autolaunch D-Bus")
}

// On macOS, osascript gets title and body as arguments of its run handler.
func TestDesktopCallsOsascriptOnMacOS(t *testing.T) {
	dir := fakeNotifier(t, "osascript", "")
	b := permission.NewBoard()
	start(t, b, Options{Desktop: true, goos: "darwin"})
	ask(b, "s", question(`Say "hi"?`, "Greeting", "Yes", "No"))
	eventually(t, time.Second, "osascript is called", func() bool { return len(calls(t, dir)) == 1 })
	args := calls(t, dir)[0]
	assert.Equal(t, []string{"-e", "on run argv"}, args[:2])
	assert.Contains(t, args, `Greeting: Say "hi"?`)
	assert.Contains(t, args, "  - Yes: about Yes")
}
