package notify

import (
	"encoding/base64"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const awkward = "Say \"hi\" \\ or 'bye' & <b>\nsecond line\t$(rm -rf ~) `x`"

// osascript's script quotes the text as AppleScript reads string literals.
func TestOsascriptScriptQuotesTheText(t *testing.T) {
	s := osascriptScript("Greeting: "+awkward, "  - Yes: about Yes")
	assert.Equal(t, `display notification "  - Yes: about Yes" with title "askbridge" subtitle "Greeting: Say \"hi\" \\ or 'bye' & <b>\nsecond line\t$(rm -rf ~) `+"`x`"+`"`+"\n", s)
	assert.Equal(t, 1, strings.Count(s, "\n"), "one line")
	assert.Equal(t, []string{"-"}, osascriptArgs, "the script is read on stdin")
}

// PowerShell's script holds the text as base64 only: nothing of it is
// parsed as script, and each statement is one line.
func TestToastScriptHoldsTheTextAsBase64(t *testing.T) {
	s := toastScript(awkward, "body "+awkward)
	assert.NotContains(t, s, "rm -rf")
	got := regexp.MustCompile(`FromBase64String\('([A-Za-z0-9+/=]*)'\)`).FindAllStringSubmatch(s, -1)
	require.Len(t, got, 2)
	for i, want := range []string{awkward, "body " + awkward} {
		b, err := base64.StdEncoding.DecodeString(got[i][1])
		require.NoError(t, err)
		assert.Equal(t, want, string(b))
	}
	assert.Equal(t, []string{"-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-Command", "-"}, powershellArgs)
}
