package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

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
			s.waitScreen("[Database (1/3)]")
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
			s.key("Enter")
			out := s.result()
			assert.Contains(t, out, `{"answers":{"Database":"SQLite","Langs":"Go, C","Name":"Other (custom: my-svc)"}}`)
			assert.Contains(t, out, "EXIT=0")
			// Each answered question stays, with its answer under it.
			screen = s.waitScreen("✔ \"my-svc\" (typed)")
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
	s.waitScreen("> Postgres - relational")
	s.key("Escape")
	out := s.result()
	assert.Contains(t, out, `{"cancelled":true}`)
	assert.Contains(t, out, "EXIT=130")
	screen := s.waitScreen("✘ cancelled")
	assert.Contains(t, screen, "✘ cancelled")
	assert.NotContains(t, screen, "✔")
}

func TestTTYPrompterEscInTheTextGoesBackToTheOptions(t *testing.T) {
	t.Parallel()
	s := startTTY(t, 80, `{"questions":[{"question":"Service name?","header":"Name","options":[{"label":"api"},{"label":"backend"}]}]}`)
	s.waitScreen("> api")
	s.pressAll(
		[2]string{"Down", "> backend"},
		[2]string{"Down", "> Other (type custom answer)"},
		[2]string{"Enter", "Your answer:"},
		[2]string{"typo", "typo"})
	screen := s.press("Escape", "> Other (type custom answer)")
	assertOnce(t, screen, "[Name]")
	s.press("Up", "> backend")
	s.key("Enter")
	assert.Contains(t, s.result(), `{"answers":{"Name":"backend"}}`)
}

func TestTTYPrompterResizedMidQuestion(t *testing.T) {
	t.Parallel()
	s := startTTY(t, 200, ttyInput)
	s.waitScreen("> Postgres - relational")
	s.pressAll(
		[2]string{"Enter", "[Langs (2/3)]"},
		[2]string{"Space", "> [•] Go"})
	s.resize(80)
	s.press("Down", "> [ ] Rust")
	// The resize's redraw and the key's may come in either order: the
	// screen must come to show each once (a miscounted redraw leaves the
	// header repeated for good).
	screen := s.waitScreenFor("the header and Rust once each", func(screen string) bool {
		return strings.Count(screen, "[Langs (2/3)]") == 1 && strings.Count(screen, "Rust") == 1
	})
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
	screen = s.waitScreenFor("the header and the cursor once each", func(screen string) bool {
		return strings.Count(screen, "[Name (3/3)]") == 1 && strings.Count(screen, "> api") == 1
	})
	assertOnce(t, screen, "[Name (3/3)]")
	assertOnce(t, screen, "> api")
	s.key("Enter")
	assert.Contains(t, s.result(), `{"answers":{"Database":"Postgres","Langs":"Go, Rust","Name":"api"}}`)
}

func TestTTYPrompterRewrapsALongQuestionWhenNarrowed(t *testing.T) {
	t.Parallel()
	long := startTTY(t, 200, ttyInput)
	long.waitScreen(longQuestion)
	long.waitScreen("> Postgres - relational")
	long.resize(50)
	long.press("Down", "> SQLite - embedded")
	screen := long.waitScreenFor("the question rewrapped to 50 columns", func(screen string) bool {
		return strings.Count(screen, "[Database (1/3)]") == 1 && !strings.Contains(screen, longQuestion) && widest(screen) <= 50
	})
	assertOnce(t, screen, "[Database (1/3)]")
	assert.NotContains(t, screen, longQuestion, "rewrapped to 50 columns")
	for _, line := range strings.Split(screen, "\n") {
		assert.LessOrEqual(t, len([]rune(line)), 50)
	}
	assert.Contains(t, screen, "> SQLite - embedded")
	long.key("Escape")
	assert.Contains(t, long.result(), "EXIT=130")
}

func TestDemoInARealTerminal(t *testing.T) {
	t.Parallel()
	for _, width := range []int{80, 200} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			t.Parallel()
			s := newTTY(t).run(width, "demo")
			s.waitScreen("Which database should the service use?")
			s.waitScreen("> Postgres")
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
			s.key("Enter")
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

// widest is the width of screen's widest line.
func widest(screen string) int {
	w := 0
	for _, line := range strings.Split(screen, "\n") {
		w = max(w, len([]rune(line)))
	}
	return w
}
