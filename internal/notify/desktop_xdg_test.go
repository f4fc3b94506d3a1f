//go:build unix && !darwin

package notify

import (
	"strings"
	"testing"
	"time"

	"github.com/askbridge/askbridge/permission"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// With notify-send on PATH, a waiting question raises one notification
// titled with its header and question, the desk link in the body; its
// answer raises none.
func TestDesktopCallsNotifySend(t *testing.T) {
	dir := fakeNotifier(t, "notify-send", "")
	b := permission.NewBoard()
	start(t, b, Options{Desktop: true, DeskURL: deskURL})
	tk := ask(b, "s", question("Use <T> & generics?", "Generics", "Yes", "No"), question("Which CI?", "CI", "GitHub", "GitLab"))
	eventually(t, time.Second, "notify-send is called", func() bool { return len(calls(t, dir)) == 1 })
	args := calls(t, dir)[0]
	assert.Equal(t, []string{"--app-name=askbridge", "--urgency=normal", "--", "Generics: Use <T> & generics? (+1 more)"}, args[:4])
	body := strings.Join(args[4:], "\n")
	assert.Contains(t, body, "  - Yes: about Yes")
	assert.Contains(t, body, "CI: Which CI?")
	assert.Contains(t, body, "Answer at the desk: "+deskPage)
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
	start(t, b, Options{Desktop: true, Logger: log})
	ask(b, "s", question("Q?", "H", "a", "b"))
	eventually(t, 2*time.Second, "the failure is logged", func() bool { return out.count("desktop notification failed") == 1 })
	assert.Contains(t, out.String(), "Cannot autolaunch D-Bus")
}
