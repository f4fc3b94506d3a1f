package notify

import (
	"testing"
	"time"

	"github.com/askbridge/askbridge/permission"
	"github.com/stretchr/testify/assert"
)

// On macOS, osascript gets title and body as arguments of its run handler.
func TestDesktopCallsOsascriptOnMacOS(t *testing.T) {
	dir := fakeNotifier(t, "osascript", "")
	b := permission.NewBoard()
	start(t, b, Options{Desktop: true})
	ask(b, "s", question(`Say "hi"?`, "Greeting", "Yes", "No"))
	eventually(t, time.Second, "osascript is called", func() bool { return len(calls(t, dir)) == 1 })
	args := calls(t, dir)[0]
	assert.Equal(t, []string{"-e", "on run argv"}, args[:2])
	assert.Contains(t, args, `Greeting: Say "hi"?`)
	assert.Contains(t, args, "  - Yes: about Yes")
}
