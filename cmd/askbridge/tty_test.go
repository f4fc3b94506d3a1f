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
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if screen := s.screen(); strings.Contains(screen, want) {
			return screen
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.t.Fatalf("screen never showed %q; it shows:\n%s", want, s.screen())
	return ""
}

// ready waits until the screen shows want and then stops changing: a
// question just drawn gets a moment before keys arrive, as a person's would,
// so that what the screen shows between keys is what the test reads.
func (s *ttySession) ready(want string) string {
	s.t.Helper()
	s.waitScreen(want)
	time.Sleep(150 * time.Millisecond)
	return s.settled()
}

// settled waits for the screen to stop changing and returns it.
func (s *ttySession) settled() string {
	prev := s.screen()
	for range 40 {
		time.Sleep(100 * time.Millisecond)
		cur := s.screen()
		if cur == prev {
			return cur
		}
		prev = cur
	}
	return prev
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

func (s *ttySession) keys(keys ...string) {
	s.t.Helper()
	for _, k := range keys {
		require.NoError(s.t, s.tmux("send-keys", "-t", "t", k))
		time.Sleep(40 * time.Millisecond)
	}
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

// assertOnce checks that the screen shows text exactly once: a redraw that
// miscounts wrapped rows repeats the header on every key press.
func assertOnce(t *testing.T, screen, text string) {
	t.Helper()
	assert.Equal(t, 1, strings.Count(screen, text), "%q on the screen once:\n%s", text, screen)
}

func TestTTYPrompterInARealTerminal(t *testing.T) {
	t.Parallel()
	for _, width := range []int{80, 200} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			t.Parallel()
			s := startTTY(t, width, ttyInput)
			s.ready("[Database (1/3)]")
			s.waitScreen("> Postgres - relational")
			screen := s.pressAll(
				[2]string{"Down", "> SQLite - embedded"},
				[2]string{"Down", "> Other (type custom answer)"},
				[2]string{"Up", "> SQLite - embedded"},
				[2]string{"Down", "> Other (type custom answer)"},
				[2]string{"Up", "> SQLite - embedded"})
			assertOnce(t, screen, "[Database (1/3)]")
			for _, line := range strings.Split(screen, "\n") {
				assert.LessOrEqual(t, len([]rune(line)), width)
			}
			if width == 80 {
				assert.NotContains(t, screen, longQuestion, "the question wraps at 80 columns")
			} else {
				assert.Contains(t, screen, longQuestion, "the question fits in 200 columns")
			}
			s.pressAll(
				[2]string{"Enter", "[Langs (2/3)]"},
				[2]string{"Space", "> [•] Go"},
				[2]string{"Down", "> [ ] Rust"},
				[2]string{"Down", "> [ ] C"},
				[2]string{"Space", "> [•] C"},
				[2]string{"Enter", "[Name (3/3)]"},
				[2]string{"Down", "> backend"},
				[2]string{"Down", "> Other (type custom answer)"},
				[2]string{"Enter", "Your answer:"},
				[2]string{"my-svc", "my-svc"})
			s.keys("Enter")
			out := s.result()
			assert.Contains(t, out, `{"answers":{"Database":"SQLite","Langs":"Go, C","Name":"Other (custom: my-svc)"}}`)
			assert.Contains(t, out, "EXIT=0")
			// Each answered question stays, with its answer under it.
			screen = s.settled()
			assert.Contains(t, screen, "[Langs (2/3)] Which languages?\n✔ Go, C\n")
			assert.Contains(t, screen, "[Name (3/3)] Service name?\n✔ \"my-svc\" (typed)\n")
			assert.Contains(t, strings.ReplaceAll(screen, "\n", ""), "[Database (1/3)] "+longQuestion+"✔ SQLite")
			assertOnce(t, screen, "[Database (1/3)]")
		})
	}
}

func TestTTYPrompterEscCancelsAndSaysSo(t *testing.T) {
	t.Parallel()
	s := startTTY(t, 80, ttyInput)
	s.ready("[Database (1/3)]")
	s.keys("Escape")
	out := s.result()
	assert.Contains(t, out, `{"cancelled":true}`)
	assert.Contains(t, out, "EXIT=130")
	screen := s.settled()
	assert.Contains(t, screen, "✘ cancelled")
	assert.NotContains(t, screen, "✔")
}

func TestTTYPrompterEscInTheTextGoesBackToTheOptions(t *testing.T) {
	t.Parallel()
	s := startTTY(t, 80, `{"questions":[{"question":"Service name?","header":"Name","options":[{"label":"api"},{"label":"backend"}]}]}`)
	s.ready("[Name]")
	s.pressAll(
		[2]string{"Down", "> backend"},
		[2]string{"Down", "> Other (type custom answer)"},
		[2]string{"Enter", "Your answer:"},
		[2]string{"typo", "typo"})
	screen := s.press("Escape", "> Other (type custom answer)")
	assertOnce(t, screen, "[Name]")
	s.press("Up", "> backend")
	s.keys("Enter")
	assert.Contains(t, s.result(), `{"answers":{"Name":"backend"}}`)
}

func TestTTYPrompterResizedMidQuestion(t *testing.T) {
	t.Parallel()
	s := startTTY(t, 200, ttyInput)
	s.ready("[Database (1/3)]")
	s.pressAll(
		[2]string{"Enter", "[Langs (2/3)]"},
		[2]string{"Space", "> [•] Go"})
	s.resize(80)
	s.press("Down", "> [ ] Rust")
	screen := s.settled()
	assertOnce(t, screen, "[Langs (2/3)]")
	assertOnce(t, screen, "Rust")
	s.pressAll(
		[2]string{"Space", "> [•] Rust"},
		[2]string{"Enter", "[Name (3/3)]"})
	// Wider again: redrawn in place, nothing left behind.
	s.resize(200)
	s.pressAll(
		[2]string{"Down", "> backend"},
		[2]string{"Up", "> api"})
	screen = s.settled()
	assertOnce(t, screen, "[Name (3/3)]")
	assertOnce(t, screen, "> api")
	s.keys("Enter")
	assert.Contains(t, s.result(), `{"answers":{"Database":"Postgres","Langs":"Go, Rust","Name":"api"}}`)
}

func TestTTYPrompterRewrapsALongQuestionWhenNarrowed(t *testing.T) {
	t.Parallel()
	long := startTTY(t, 200, ttyInput)
	long.ready(longQuestion)
	long.resize(50)
	long.press("Down", "> SQLite - embedded")
	screen := long.settled()
	assertOnce(t, screen, "[Database (1/3)]")
	assert.NotContains(t, screen, longQuestion, "rewrapped to 50 columns")
	for _, line := range strings.Split(screen, "\n") {
		assert.LessOrEqual(t, len([]rune(line)), 50)
	}
	assert.Contains(t, screen, "> SQLite - embedded")
	long.keys("Escape")
	assert.Contains(t, long.result(), "EXIT=130")
}

func TestDemoInARealTerminal(t *testing.T) {
	t.Parallel()
	for _, width := range []int{80, 200} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			t.Parallel()
			s := newTTY(t).run(width, "demo")
			s.ready("Which database should the service use?")
			s.pressAll(
				[2]string{"Down", "> SQLite"},
				[2]string{"Enter", "Which features do you want"},
				[2]string{"Space", "> [•] Auth"},
				[2]string{"Down", "> [ ] Metrics"},
				[2]string{"Space", "> [•] Metrics"},
				[2]string{"Enter", "[Name (3/3)]"},
				[2]string{"Down", "> backend"},
				[2]string{"Up", "> api"},
				[2]string{"Down", "> backend"})
			screen := s.press("Down", "> Other (type custom answer)")
			assertOnce(t, screen, "[Name (3/3)]")
			s.pressAll(
				[2]string{"Enter", "Your answer:"},
				[2]string{"my-svc", "my-svc"})
			s.keys("Enter")
			s.waitScreen("(turn ended: end_turn)")
			screen = s.screen()
			assert.Contains(t, screen, "Which database should the service use? → SQLite")
			assert.Contains(t, screen, "Which features do you want from day one? → Auth, Metrics")
			assert.Regexp(t, `→\s+my-svc`, screen)
			assert.Contains(t, screen, "[Database (1/3)] Which database should the service use?\n✔ SQLite\n")
			assert.Contains(t, s.result(), "EXIT=0")
		})
	}
}
