package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ttySession runs `askbridge ask` in a real terminal (tmux), so the
// interactive prompter is driven by key presses and read off the screen.
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

// startTTY runs `askbridge ask INPUT` in a terminal.
func startTTY(t *testing.T, input string) *ttySession {
	s := newTTY(t)
	in := filepath.Join(t.TempDir(), "in.json")
	require.NoError(t, os.WriteFile(in, []byte(input), 0o600))
	return s.run(fmt.Sprintf("ask \"$(cat %s)\" > %s", in, s.out))
}

// run starts `askbridge ARGS` in the terminal; the exit code goes to s.out.
func (s *ttySession) run(args string) *ttySession {
	shell := fmt.Sprintf("GORACE=atexit_sleep_ms=0 ASKBRIDGE_SOCKET= %s %s; echo EXIT=$? >> %s; sleep 30", askbridgeBin, args, s.out)
	require.NoError(s.t, s.tmux("new-session", "-d", "-s", "t", "-x", "120", "-y", "40", shell))
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

func (s *ttySession) waitScreen(want string) {
	s.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if strings.Contains(s.screen(), want) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.t.Fatalf("screen never showed %q; it shows:\n%s", want, s.screen())
}

func (s *ttySession) keys(keys ...string) {
	s.t.Helper()
	for _, k := range keys {
		require.NoError(s.t, s.tmux("send-keys", "-t", "t", k))
		time.Sleep(30 * time.Millisecond)
	}
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
	s.t.Fatalf("askbridge ask did not finish; the screen shows:\n%s", s.screen())
	return ""
}

const ttyInput = `{"questions":[{"question":"Which database?","header":"Database","options":[{"label":"Postgres","description":"relational"},{"label":"SQLite","description":"embedded"}]},{"question":"Which languages?","header":"Langs","multiSelect":true,"options":[{"label":"Go"},{"label":"Rust"},{"label":"C"}]},{"question":"Service name?","header":"Name","options":[{"label":"api"},{"label":"backend"}]}]}`

func TestTTYPrompterInARealTerminal(t *testing.T) {
	s := startTTY(t, ttyInput)
	s.waitScreen("Which database?")
	assert.Contains(t, s.screen(), "❯ 1. Postgres - relational")
	s.keys("Down", "Enter")
	s.waitScreen("Which languages?")
	s.keys("Space", "3", "Space", "Enter")
	s.waitScreen("Service name?")
	s.keys("3", "Enter")
	s.waitScreen("Your answer:")
	s.keys("my-svc", "Enter")
	out := s.result()
	assert.Contains(t, out, `{"answers":{"Database":"SQLite","Langs":"Go, C","Name":"Other (custom: my-svc)"}}`)
	assert.Contains(t, out, "EXIT=0")
}

func TestTTYPrompterEscCancels(t *testing.T) {
	s := startTTY(t, ttyInput)
	s.waitScreen("Which database?")
	s.keys("Escape")
	out := s.result()
	assert.Contains(t, out, `{"cancelled":true}`)
	assert.Contains(t, out, "EXIT=130")
}

func TestDemoInARealTerminal(t *testing.T) {
	s := newTTY(t).run("demo")
	s.waitScreen("Which database should the service use?")
	s.keys("Down", "Enter")
	s.waitScreen("Which features do you want")
	s.keys("Space", "Down", "Space", "Enter")
	s.waitScreen("What should the service be called?")
	s.keys("3", "Enter")
	s.waitScreen("Your answer:")
	s.keys("my-svc", "Enter")
	s.waitScreen("(turn ended: end_turn)")
	screen := s.screen()
	assert.Contains(t, screen, "Which database should the service use? → SQLite")
	assert.Contains(t, screen, "Which features do you want from day one? → Auth, Metrics")
	assert.Contains(t, screen, "→ my-svc")
	assert.Contains(t, s.result(), "EXIT=0")
}
