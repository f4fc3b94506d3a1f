package notify

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"strings"
)

// desktop raises a desktop notification when a set is asked, with the
// OS's own notifier (nativeDesktop, one file per OS): notify-send on Linux
// and the BSDs, osascript on macOS, a toast through PowerShell on Windows.
type desktop struct {
	path string
	cmd  desktopCmd
}

// desktopCmd is a notifier program and how it is given a notification.
type desktopCmd struct {
	name string // looked up on PATH
	args func(title, body string) []string
	// env, when set, is added to the program's environment: the text goes
	// there rather than into a script that would have to quote it.
	env func(title, body string) []string
}

func (d *desktop) name() string       { return "desktop notification" }
func (d *desktop) wants(e Event) bool { return e.base() == Asked || e.base() == Expiring }

func (d *desktop) deliver(ctx context.Context, e Event) error {
	c := exec.CommandContext(ctx, d.path, d.cmd.args(e.Title(), e.Text())...)
	if d.cmd.env != nil {
		c.Env = append(os.Environ(), d.cmd.env(e.Title(), e.Text())...)
	}
	out, err := c.CombinedOutput()
	if err != nil {
		if msg := strings.TrimSpace(string(out)); msg != "" {
			return fmt.Errorf("%s: %w: %s", d.path, err, shorten(msg, 300))
		}
		return fmt.Errorf("%s: %w", d.path, err)
	}
	return nil
}

// findDesktop looks up this OS's notifier on PATH. When there is none it
// says so, once, and returns nil: --notify then does nothing else.
func findDesktop(log *slog.Logger) *desktop {
	path, err := exec.LookPath(nativeDesktop.name)
	if err != nil {
		log.Warn(fmt.Sprintf("--notify: no desktop notifier: %s is not on PATH; questions will raise no desktop notification", nativeDesktop.name))
		return nil
	}
	return &desktop{path: path, cmd: nativeDesktop}
}
