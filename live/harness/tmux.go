package harness

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Terminal is a command running in a terminal of a tmux server of its own,
// as a person runs it: stdin and stderr are a tty, and keys are typed.
type Terminal struct {
	t      testing.TB
	sock   string // the tmux server's -L name
	Home   string // the agent's HOME and working directory
	marker string
}

// exitMark is what the terminal shows once the command has exited.
const exitMark = "[command exited "

// Tmux runs argv in a fresh tmux terminal, 200 columns wide, in a's
// environment pointed at modelURL; the server and everything it started
// are ended when the test ends.
func Tmux(t testing.TB, a Agent, modelURL string, argv []string) *Terminal {
	t.Helper()
	if err := Installed(); err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("tmux is not installed: apt-get install tmux")
	}
	home := t.TempDir()
	env, err := a.Setup(home, modelURL)
	if err != nil {
		t.Fatalf("setting up %s: %v", a.Name, err)
	}
	tm := &Terminal{t: t, sock: "askbridge-live-" + newMarker(), Home: home, marker: newMarker()}
	env = append(append(hostEnv(), "HOME="+home, "ASKBRIDGE_LIVE_RUN="+tm.marker, "TERM=xterm-256color",
		"PATH="+filepath.Join(LiveDir(), "node_modules/.bin")+":"+pathEnv()), env...)
	var script strings.Builder
	script.WriteString("#!/bin/sh\ncd " + shellQuote(home) + " || exit 1\nenv -i")
	for _, kv := range env {
		script.WriteString(" " + shellQuote(kv))
	}
	for _, arg := range argv {
		script.WriteString(" " + shellQuote(arg))
	}
	script.WriteString("\necho \"" + exitMark + "$?]\"\nsleep 600\n")
	path := filepath.Join(home, "run.sh")
	if err := os.WriteFile(path, []byte(script.String()), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		exec.Command("tmux", "-L", tm.sock, "kill-server").Run()
		for _, pid := range markedPIDs(tm.marker) {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	out, err := exec.Command("tmux", "-L", tm.sock, "-f", "/dev/null", "new-session", "-d", "-s", "live", "-x", "200", "-y", "50", path).CombinedOutput()
	if err != nil {
		t.Fatalf("tmux: %v: %s", err, out)
	}
	exec.Command("tmux", "-L", tm.sock, "set-option", "-g", "history-limit", "20000").Run()
	return tm
}

// Screen is what the terminal shows, its scrollback included, lines joined
// where the terminal wrapped them.
func (tm *Terminal) Screen() string {
	out, err := exec.Command("tmux", "-L", tm.sock, "capture-pane", "-p", "-J", "-S", "-20000", "-t", "live").Output()
	if err != nil {
		return ""
	}
	return string(out)
}

// WaitFor waits until the screen shows s at least n times, and returns
// the screen; it fails the test at timeout or when the command exits first.
func (tm *Terminal) WaitFor(s string, n int, timeout time.Duration) string {
	tm.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		screen := tm.Screen()
		if strings.Count(screen, s) >= n {
			return screen
		}
		if strings.Contains(screen, exitMark) && s != exitMark || time.Now().After(deadline) {
			tm.t.Fatalf("waited for %q (%d times); the terminal shows:\n%s", s, n, screen)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Type types keys as a person would: tmux key names ("Enter") or text.
func (tm *Terminal) Type(keys ...string) {
	tm.t.Helper()
	args := append([]string{"-L", tm.sock, "send-keys", "-t", "live"}, keys...)
	if out, err := exec.Command("tmux", args...).CombinedOutput(); err != nil {
		tm.t.Fatalf("tmux send-keys: %v: %s", err, out)
	}
}

// Exited waits for the command to exit and returns its exit status line.
func (tm *Terminal) Exited(timeout time.Duration) string {
	tm.t.Helper()
	screen := tm.WaitFor(exitMark, 1, timeout)
	i := strings.LastIndex(screen, exitMark)
	line, _, _ := strings.Cut(screen[i:], "\n")
	return line
}

// shellQuote quotes s for sh.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
