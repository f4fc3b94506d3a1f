package notify

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/askbridge/askbridge/permission"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const toastDeskURL = "http://127.0.0.1:7777/?token=t"

// A waiting question runs powershell with the toast script, the text in
// the environment only. The powershell found on PATH here is a batch file
// that writes down its environment and arguments.
func TestDesktopRaisesAToastThroughPowerShell(t *testing.T) {
	dir := t.TempDir()
	bat := "@echo off\r\n" +
		"echo %* > \"" + dir + "\\args.txt\"\r\n" +
		// No space before >: Wine's cmd would take it as part of the name.
		"set ASKBRIDGE_TOAST_>\"" + dir + "\\env.tmp\"\r\n" +
		"move /y \"" + dir + "\\env.tmp\" \"" + dir + "\\env.txt\" > nul\r\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "powershell.bat"), []byte(bat), 0o755))
	t.Setenv("PATH", dir)
	b := permission.NewBoard()
	start(t, b, Options{Desktop: true, DeskURL: toastDeskURL})
	ask(b, "s", question(`Use <T> & "generics"?`, "Generics", "Yes", "No"))
	var env string
	eventually(t, 10*time.Second, "powershell is called", func() bool {
		e, err := os.ReadFile(filepath.Join(dir, "env.txt"))
		env = string(e)
		return err == nil
	})
	assert.Contains(t, env, `ASKBRIDGE_TOAST_TITLE=Generics: Use <T> & "generics"?`, "the title as it is")
	assert.Contains(t, env, "Answer at the desk: http://127.0.0.1:7777/")
	assert.NotContains(t, env, "token=")
	args, err := os.ReadFile(filepath.Join(dir, "args.txt"))
	require.NoError(t, err)
	assert.Contains(t, string(args), "-EncodedCommand "+encodedToastScript)
	assert.NotContains(t, string(args), "generics", "no text of the question on the command line")
}

func TestToastScriptIsEncodedAsPowerShellReadsIt(t *testing.T) {
	b, err := base64.StdEncoding.DecodeString(encodedToastScript)
	require.NoError(t, err)
	require.Zero(t, len(b)%2)
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
	}
	assert.Equal(t, toastScript, string(utf16.Decode(u)))
	assert.True(t, strings.Contains(toastScript, "$env:ASKBRIDGE_TOAST_BODY"))
}
