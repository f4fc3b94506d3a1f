//go:build browser

package desk

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/askbridge/askbridge/permission"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The page shows a sign-in's address as a link the user chooses to follow:
// in full, with its host, in a new tab without a referrer; it opens and
// fetches nothing itself, and an address that is not http or https stays
// text. Before it pairs, the page says it is not paired, and keeps saying
// it with no key and with a key the desk does not know (issue 33: a stale
// token made it claim no question was waiting).
func TestBrowserShowsASignInLink(t *testing.T) {
	needBrowser(t)
	s, board := newDesk(t, Options{})
	link := func(message, url string) permission.Request {
		return permission.Request{SessionID: "(no session)", Questions: []permission.Question{{Header: "Open link", Question: message, Link: url, Kind: permission.Link,
			Options: []permission.Option{{Label: "I opened it"}, {Label: "Cancel"}}}}}
	}
	tk := board.Open(link("Sign in to ChatGPT and enter this code: ABCD-12345", "https://auth.example.com/codex/device?a=1&b=2"))
	board.Open(link("Evil", "javascript:alert(1)"))

	shot := filepath.Join(t.TempDir(), "link.png")
	if dir := os.Getenv("ASKBRIDGE_SCREENSHOT_DIR"); dir != "" {
		shot = filepath.Join(dir, "link.png")
	}
	code, _ := s.Devices().NewCode()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "node", "e2e/link.mjs", s.URL(), code, shot).CombinedOutput()
	require.NoError(t, err, string(out))
	got := string(out)
	for _, state := range []string{"UNPAIRED", "STALE"} {
		assert.Regexp(t, "(?m)^"+state+" (?i:this browser is not paired)", got, "it says so, and nothing overwrites it")
		assert.Contains(t, got, state+"-FORM 1\n", "with the pairing form")
		assert.Contains(t, got, state+"-CARDS 0\n", "and no card of a desk it cannot read")
	}
	assert.Contains(t, got, "HREF https://auth.example.com/codex/device?a=1&b=2\n")
	assert.Contains(t, got, "TEXT https://auth.example.com/codex/device?a=1&b=2\n", "the address in full")
	assert.Contains(t, got, "TARGET _blank")
	assert.Contains(t, got, "REL noopener noreferrer")
	assert.Contains(t, got, "HOST Host: auth.example.com")
	assert.Contains(t, got, "BADLINKS 0", "javascript: is never a link")
	assert.Contains(t, got, "BADTEXT javascript:alert(1)")
	assert.Contains(t, got, "FETCHED 0", "the page fetched nothing beyond the desk")
	assert.Contains(t, got, "SENT")
	<-tk.Done()
	assert.Equal(t, []string{"I opened it"}, tk.Result().Answers[0].Answer.Labels)
}
