//go:build browser

package desk

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Pairing never leaves the user guessing: while the passkey prompt waits,
// the page says so and counts down the time left on the code (it showed
// nothing); a pairing link opened in the tab already open replaces the
// form's code (it kept the old one, and the user lost both), and ends the
// prompt that waited for the old one.
func TestBrowserPairingShowsEachStepAndTakesANewLink(t *testing.T) {
	needBrowser(t)
	s, _ := newDesk(t, Options{})
	var codes []string
	for range 3 {
		c, _ := s.Devices().NewCode()
		codes = append(codes, c)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "node", append([]string{"e2e/pairsteps.mjs", s.URL()}, codes...)...).CombinedOutput()
	require.NoError(t, err, string(out))
	got := string(out)
	assert.Contains(t, got, "FIRST "+codes[0]+"\n")
	assert.Contains(t, got, "SECOND "+codes[1]+"\n", "a new link's code replaces the form's")
	assert.NotContains(t, got, "#pair=", "no code left in the address bar")
	assert.Regexp(t, `WAITING Waiting for your passkey[^\n]* [0-5]:\d\d left on this code\.\n`, got)
	assert.Regexp(t, `COUNTED (\d+) (\d+)\n`, got)
	assert.Contains(t, got, "THIRD "+codes[2]+"\n", "a link during the passkey prompt")
	assert.Contains(t, got, "STEP A new code from the link: press Pair.\n")
	assert.Contains(t, got, `ERROR ""`, "the prompt it ended is no error")
	assert.Regexp(t, `DEVICE [^\n]*· passkey ·`, got, "paired with the third code, with a passkey")
	require.Len(t, s.Devices().List(), 1)
	assert.Error(t, s.Devices().Redeem(codes[1], "test"), "the second code was spent at the prompt it ended")
	assert.NoError(t, s.Devices().Redeem(codes[0], "test"), "the first was never sent")
}
