package notify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askbridge/askbridge/permission"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A waiting question runs powershell with "-Command -": it reads the toast
// script on stdin (TestStdinScriptKeepsTheTextOffTheCommandLine checks the
// runner where a fake can read stdin; Wine's cmd cannot), and the command
// line is the same for every notification. The powershell found on PATH
// here is a batch file that writes down its arguments.
func TestDesktopRaisesAToastThroughPowerShell(t *testing.T) {
	dir := t.TempDir()
	bat := "@echo off\r\n" +
		"echo %* > \"" + dir + "\\args.tmp\"\r\n" +
		"move /y \"" + dir + "\\args.tmp\" \"" + dir + "\\args.txt\" > nul\r\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "powershell.bat"), []byte(bat), 0o755))
	t.Setenv("PATH", dir)
	b := permission.NewBoard()
	start(t, b, Options{Desktop: true, DeskURL: "http://127.0.0.1:7777/?token=t"})
	ask(b, "s", question(`Use <T> & "generics"?`, "Generics", "Yes", "No"))
	var args string
	eventually(t, 10*time.Second, "powershell is called", func() bool {
		a, err := os.ReadFile(filepath.Join(dir, "args.txt"))
		args = string(a)
		return err == nil
	})
	assert.Equal(t, strings.Join(powershellArgs, " "), strings.TrimSpace(args))
	assert.NotContains(t, args, "generics", "no text of the question on the command line")
}
