package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// ttySession runs askbridge in a real terminal (tmux), so the interactive
// prompter is driven by key presses and read off the screen.
type ttySession struct {
	t      *testing.T
	socket string
	out    string
}

func newTTY(t *testing.T) *ttySession {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: the TTY prompter test needs it (apt-get install tmux)")
	}
	return &ttySession{t: t, socket: fmt.Sprintf("askbridge-test-%d-%d", os.Getpid(), time.Now().UnixNano()), out: filepath.Join(t.TempDir(), "out")}
}

// startTTY runs `askbridge ask INPUT` in a terminal width columns wide.
func startTTY(t *testing.T, width int, input string) *ttySession {
	s := newTTY(t)
	in := filepath.Join(t.TempDir(), "in.json")
	require.NoError(t, os.WriteFile(in, []byte(input), 0o600))
	return s.run(width, fmt.Sprintf("ask \"$(cat %s)\" > %s", in, s.out))
}

// run starts `askbridge ARGS` in the terminal; the exit code goes to s.out.
func (s *ttySession) run(width int, args string) *ttySession {
	shell := fmt.Sprintf("GORACE=atexit_sleep_ms=0 ASKBRIDGE_SOCKET= %s %s; echo EXIT=$? >> %s; sleep 30", askbridgeBin, args, s.out)
	require.NoError(s.t, s.tmux("new-session", "-d", "-s", "t", "-x", fmt.Sprint(width), "-y", "30", shell))
	s.t.Cleanup(func() { s.tmux("kill-server") })
	return s
}

func (s *ttySession) tmux(args ...string) error {
	out, err := exec.Command("tmux", append([]string{"-L", s.socket}, args...)...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("tmux %v: %v: %s", args, err, out)
	}
	return nil
}

func (s *ttySession) screen() string {
	out, _ := exec.Command("tmux", "-L", s.socket, "capture-pane", "-p", "-t", "t").Output()
	return string(out)
}

// waitScreen waits until the screen shows want, and returns the screen.
func (s *ttySession) waitScreen(want string) string {
	s.t.Helper()
	return s.waitScreenFor(fmt.Sprintf("%q", want), func(screen string) bool { return strings.Contains(screen, want) })
}

// waitScreenFor waits until the screen is as ok wants it (what names it),
// and returns the screen: a test waits for what it expects, never for a
// fixed time or for the screen to stop changing, however busy the machine.
func (s *ttySession) waitScreenFor(what string, ok func(screen string) bool) string {
	s.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if screen := s.screen(); ok(screen) {
			return screen
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.t.Fatalf("screen never showed %s; it shows:\n%s", what, s.screen())
	return ""
}

// press sends one key and waits until the screen shows want: the key's own
// effect, so the next key never goes in before the prompt has taken this one,
// however busy the machine.
func (s *ttySession) press(key, want string) string {
	s.t.Helper()
	require.NoError(s.t, s.tmux("send-keys", "-t", "t", key))
	return s.waitScreen(want)
}

// pressAll presses each key in turn, waiting after each for its want.
func (s *ttySession) pressAll(steps ...[2]string) string {
	s.t.Helper()
	screen := ""
	for _, st := range steps {
		screen = s.press(st[0], st[1])
	}
	return screen
}

// key sends one key whose effect the test then waits for otherwise (the
// prompt ending: result).
func (s *ttySession) key(key string) {
	s.t.Helper()
	require.NoError(s.t, s.tmux("send-keys", "-t", "t", key))
}

func (s *ttySession) resize(width int) {
	s.t.Helper()
	require.NoError(s.t, s.tmux("resize-window", "-t", "t", "-x", fmt.Sprint(width)))
}

func (s *ttySession) result() string {
	s.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		b, _ := os.ReadFile(s.out)
		if strings.Contains(string(b), "EXIT=") {
			return string(b)
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.t.Fatalf("askbridge did not finish; the screen shows:\n%s", s.screen())
	return ""
}

// longQuestion wraps at 80 columns but not at 200.
const longQuestion = "Which database should the new service use for its primary storage, given that it runs on one small VM?"

var ttyInput = `{"questions":[` +
	`{"question":"` + longQuestion + `","header":"Database","options":[{"label":"Postgres","description":"relational"},{"label":"SQLite","description":"embedded"}]},` +
	`{"question":"Which languages?","header":"Langs","multiSelect":true,"options":[{"label":"Go"},{"label":"Rust"},{"label":"C"}]},` +
	`{"question":"Service name?","header":"Name","options":[{"label":"api"},{"label":"backend"}]}]}`
