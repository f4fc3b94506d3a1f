//go:build browser

package desk

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBrowserAnswersThroughThePage runs the adapter with a fake agent and a
// client that never answers, and drives the desk page in Chromium
// (e2e/answer.mjs): a multi-select answered with the keyboard, agent text
// shown as text, a second desk opened in the same browser, a reload that
// keeps the history and the session, and a follow-up asked on the page. The
// agent must get every answer and the client's requests be withdrawn.
//
// A missing browser fails the test: `make test-browser` that passes while
// testing nothing would hide a broken page. CI installs it; so does
// route/desk/e2e/install.sh.
func TestBrowserAnswersThroughThePage(t *testing.T) {
	needBrowser(t)
	b := newBridged(t)
	other, _ := newDesk(t, Options{})
	b.send(b.fromAgent, `{"jsonrpc":"2.0","id":"ask-1","method":"_askbridge/ask","params":{"sessionId":"s1","questions":[{"question":"Which languages? <script>window.__xss=true</script>","header":"Langs","multiSelect":true,"options":[{"label":"Go","description":"<b>fast</b> builds"},{"label":"Rust"},{"label":"C"}]}]}}`)
	perm := b.expect(b.toClient, "session/request_permission")

	shot := filepath.Join(t.TempDir(), "desk.png")
	if dir := os.Getenv("ASKBRIDGE_SCREENSHOT_DIR"); dir != "" {
		shot = filepath.Join(dir, "desk.png")
	}
	codeA, _ := b.desk.Devices().NewCode()
	codeB, _ := other.Devices().NewCode()
	d := startDriver(t, "e2e/answer.mjs", b.desk.URL(), codeA, other.URL(), codeB, shot)

	sdk := func(line string) map[string]string {
		var r struct {
			Result struct {
				Behavior     string
				UpdatedInput struct{ Answers map[string]string }
			}
		}
		require.NoError(t, json.Unmarshal([]byte(line), &r))
		assert.Equal(t, "allow", r.Result.Behavior)
		return r.Result.UpdatedInput.Answers
	}
	answers := sdk(b.expect(b.toAgent, `"ask-1"`))
	assert.Equal(t, "Go, C", answers["Which languages? <script>window.__xss=true</script>"])
	var p struct{ ID string }
	json.Unmarshal([]byte(perm), &p)
	assert.Contains(t, b.expect(b.toClient, "$/cancel_request"), p.ID, "the request still open at the client is withdrawn")

	d.await("READY FOR THE FOLLOW-UP SET")
	b.send(b.fromAgent, compact(strings.Replace(authAsk, `"ask-1"`, `"ask-2"`, 1)))
	answers = sdk(b.expect(b.toAgent, `"ask-2"`))
	assert.Equal(t, map[string]string{"Which auth?": "OAuth", "Which database?": "SQLite", "Which provider?": "Google"}, answers)

	checkAnswerPage(t, d.finish(), b.desk, other)
}

// checkAnswerPage checks what the driver of e2e/answer.mjs saw of desk and
// of the other desk it opened.
func checkAnswerPage(t *testing.T, text string, desk, other *Server) {
	assert.Contains(t, text, "ADDRESS "+desk.URL()+"\n", "the pairing code leaves the address bar")
	assert.Contains(t, text, "LEGEND LangsWhich languages? <script>window.__xss=true</script>", "agent text shows as text")
	assert.Contains(t, text, "XSS false")
	assert.Contains(t, text, "SCRIPTS 0")
	assert.Contains(t, text, "HISTORY Round 1 (answered) Langs")
	assert.Contains(t, text, "OTHER DESK Live")
	for _, d := range []*Server{desk, other} {
		assert.Regexp(t, `COOKIES .*`+d.cookieName()+` httpOnly=true sameSite=Strict`, text, "a session cookie per desk, which the page cannot read")
	}
	assert.Contains(t, text, "RELOADED HISTORY Round 1 (answered) Langs", "the history survives a reload after a second desk was opened")
	assert.Contains(t, text, "FOLLOWUP Follow-upProviderWhich provider?")
	assert.Contains(t, text, "SO FAR Auth OAuthDB SQLite")
	assert.Contains(t, text, "Which provider? → Google")
	assert.Contains(t, text, "DONE")
}

// needBrowser fails the test without the browser and its driver.
func needBrowser(t *testing.T) {
	t.Helper()
	if _, err := os.Stat("/usr/bin/chromium"); err != nil {
		t.Fatal("Debian's chromium is not installed: run route/desk/e2e/install.sh")
	}
	if _, err := os.Stat("e2e/node_modules/playwright-core"); err != nil {
		t.Fatal("playwright-core is not installed: run route/desk/e2e/install.sh")
	}
}

type syncBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuilder) add(text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.b.WriteString(text)
}

func (s *syncBuilder) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
