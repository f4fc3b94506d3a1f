package notify

import (
	"testing"
	"time"

	"github.com/askbridge/askbridge/permission"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Without a notifier (no session bus; no osascript or powershell on PATH),
// --notify says so once and does nothing else.
func TestDesktopWithoutNotifierLogsOnce(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	b := permission.NewBoard()
	log, out := newLogger()
	start(t, b, Options{Desktop: true, Logger: log})
	for range 3 {
		tk := ask(b, "s", question("Q?", "H", "a", "b"))
		require.NoError(t, b.Settle(tk.ID, permission.Result{}, permission.ByEditor()))
	}
	time.Sleep(100 * time.Millisecond)
	assert.Equal(t, 1, out.count("no desktop notifier"), out.String())
	assert.Equal(t, 1, out.count("level="), "nothing else is logged: %s", out.String())
}
