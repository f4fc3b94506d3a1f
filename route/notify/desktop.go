package notify

import (
	"context"
	"fmt"
	"log/slog"
	"os/exec"
	"strings"
)

// desktop raises a desktop notification when a set is asked, with the
// OS's own notifier (nativeDesktop, one file per OS): the freedesktop
// Notifications service over D-Bus on Linux and the BSDs, osascript on
// macOS, a toast through PowerShell on Windows. No text of a notification
// is ever on a command line, where every user of the machine reads it.
type desktop struct {
	show shower
}

// shower shows one notification.
type shower interface {
	show(ctx context.Context, title, body string) error
}

func (d *desktop) name() string       { return "desktop notification" }
func (d *desktop) wants(e Event) bool { return e.base() == Asked || e.base() == Expiring }

func (d *desktop) deliver(ctx context.Context, e Event) error {
	return d.show.show(ctx, e.Title(), e.Text())
}

// findDesktop finds this OS's notifier. When there is none it says so,
// once, and returns nil: --notify then does nothing else.
func findDesktop(log *slog.Logger) *desktop {
	s, err := nativeDesktop()
	if err != nil {
		log.Warn(fmt.Sprintf("--notify: no desktop notifier: %v; questions will raise no desktop notification", err))
		return nil
	}
	return &desktop{show: s}
}

// stdinScript is a notifier program that reads its script on stdin, the
// notification's text written into the script (script quotes it), so that
// its command line is the same for every notification and says nothing.
type stdinScript struct {
	path   string
	args   []string
	script func(title, body string) string
}

// findScript looks name up on PATH.
func findScript(name string, args []string, script func(title, body string) string) (shower, error) {
	path, err := exec.LookPath(name)
	if err != nil {
		return nil, fmt.Errorf("%s is not on PATH", name)
	}
	return &stdinScript{path: path, args: args, script: script}, nil
}

func (s *stdinScript) show(ctx context.Context, title, body string) error {
	c := exec.CommandContext(ctx, s.path, s.args...)
	c.Stdin = strings.NewReader(s.script(title, body))
	out, err := c.CombinedOutput()
	if err != nil {
		if msg := strings.TrimSpace(string(out)); msg != "" {
			return fmt.Errorf("%s: %w: %s", s.path, err, shorten(msg, 300))
		}
		return fmt.Errorf("%s: %w", s.path, err)
	}
	return nil
}
