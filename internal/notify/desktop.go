package notify

import (
	"context"
	"fmt"
	"log/slog"
	"os/exec"
	"runtime"
	"strings"
)

// desktop raises a desktop notification when a set is asked: notify-send
// on Linux and the BSDs, osascript on macOS.
type desktop struct {
	path string
	args func(title, body string) []string
}

func (d *desktop) name() string       { return "desktop notification" }
func (d *desktop) wants(e Event) bool { return e.base() == Asked || e.base() == Expiring }

func (d *desktop) deliver(ctx context.Context, e Event) error {
	out, err := exec.CommandContext(ctx, d.path, d.args(e.Title(), e.Text())...).CombinedOutput()
	if err != nil {
		if msg := strings.TrimSpace(string(out)); msg != "" {
			return fmt.Errorf("%s: %w: %s", d.path, err, shorten(msg, 300))
		}
		return fmt.Errorf("%s: %w", d.path, err)
	}
	return nil
}

// findDesktop looks up the notifier of goos (runtime.GOOS when empty) on
// PATH. When there is none it says so, once, and returns nil: --notify
// then does nothing else.
func findDesktop(goos string, log *slog.Logger) *desktop {
	if goos == "" {
		goos = runtime.GOOS
	}
	name, args := "notify-send", notifySendArgs
	if goos == "darwin" {
		name, args = "osascript", osascriptArgs
	}
	path, err := exec.LookPath(name)
	if err != nil {
		log.Warn(fmt.Sprintf("--notify: no desktop notifier: %s is not on PATH; questions will raise no desktop notification", name))
		return nil
	}
	return &desktop{path: path, args: args}
}

// notifySendArgs: the body may hold markup, so the question's own text is
// escaped. Urgency stays normal: a critical notification would not expire,
// and would linger after the question is answered elsewhere.
func notifySendArgs(title, body string) []string {
	return []string{"--app-name=askbridge", "--urgency=normal", "--", title, markupEscaper.Replace(body)}
}

var markupEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// osascriptArgs passes title and body as arguments of the script's run
// handler, so that no text needs AppleScript quoting.
func osascriptArgs(title, body string) []string {
	return []string{
		"-e", "on run argv",
		"-e", "display notification (item 2 of argv) with title \"askbridge\" subtitle (item 1 of argv)",
		"-e", "end run",
		title, body,
	}
}
