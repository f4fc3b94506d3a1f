//go:build unix

package notify

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/testkit/testenv"
)

// A notifier that reads its script on stdin (osascript, powershell) gets
// the text there, and its command line is the same whatever it shows.
func TestStdinScriptKeepsTheTextOffTheCommandLine(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "notifier")
	testenv.WriteExecutable(t, bin, []byte("#!/bin/sh\nprintf '%s\\n' \"$@\" > \""+dir+"/args\"\n/bin/cat > \""+dir+"/stdin\"\n"))
	t.Setenv("PATH", dir)
	s, err := findScript("notifier", []string{"-"}, osascriptScript)
	require.NoError(t, err)
	require.NoError(t, s.show(t.Context(), "Greeting: "+awkward, "  - Yes"))
	args, err := os.ReadFile(filepath.Join(dir, "args"))
	require.NoError(t, err)
	assert.Equal(t, "-\n", string(args))
	in := waitFile(t, filepath.Join(dir, "stdin"), time.Second)
	assert.Equal(t, osascriptScript("Greeting: "+awkward, "  - Yes"), string(in))

	_, err = findScript("osascript-nowhere", nil, osascriptScript)
	assert.EqualError(t, err, "osascript-nowhere is not on PATH")
}

// A notifier that fails is reported with its words.
func TestStdinScriptFailureSaysWhy(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteExecutable(t, filepath.Join(dir, "notifier"), []byte("#!/bin/sh\n/bin/cat >/dev/null\necho 'no display' >&2\nexit 1\n"))
	t.Setenv("PATH", dir)
	s, err := findScript("notifier", nil, osascriptScript)
	require.NoError(t, err)
	err = s.show(t.Context(), "T", "B")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no display")
}
