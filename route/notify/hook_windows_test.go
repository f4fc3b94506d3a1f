//go:build windows

package notify

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/askbridge/askbridge/permission"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/windows"
)

// TestMain lets the test binary stand in for a hook's background child.
func TestMain(m *testing.M) {
	if wait := os.Getenv("ASKBRIDGE_TEST_WAITFOR"); wait != "" {
		// The hook's foreground step: it exits once the child is up, so the
		// tree is ended with a child in it.
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if _, err := os.Stat(wait); err == nil {
				break
			}
		}
		os.Exit(0)
	}
	if out := os.Getenv("ASKBRIDGE_TEST_CHILD"); out != "" {
		os.WriteFile(out, []byte(strconv.Itoa(os.Getpid())+"\n"), 0o600)
		time.Sleep(10 * time.Minute)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// On Windows the hook runs through cmd.exe with the event in its
// environment, and what it starts in the background ends when it exits.
func TestWindowsHookRunsThroughCmdAndEndsItsTree(t *testing.T) {
	dir := t.TempDir()
	exe, err := os.Executable()
	require.NoError(t, err)
	t.Setenv("OUT", dir)
	t.Setenv("TESTBIN", exe)
	t.Setenv("ASKBRIDGE_TEST_CHILD", filepath.Join(dir, "child"))
	b := permission.NewBoard()
	log, out := newLogger()
	start(t, b, Options{Logger: log, Hook: `start "" /b "%TESTBIN%" & set ASKBRIDGE_TEST_CHILD=& set ASKBRIDGE_TEST_WAITFOR=%OUT%\child& "%TESTBIN%" & echo %ASKBRIDGE_EVENT% %ASKBRIDGE_QUESTION_ID%> "%OUT%\event.txt"`})
	tk := ask(b, "s", question("Q?", "H\x00", "a", "b"))
	got := strings.TrimSpace(string(waitFile(t, filepath.Join(dir, "event.txt"), 5*time.Second)))
	assert.Equal(t, "asked "+tk.ID, got)
	pid, err := strconv.Atoi(strings.TrimSpace(string(waitFile(t, filepath.Join(dir, "child"), 5*time.Second))))
	require.NoError(t, err)
	eventually(t, 5*time.Second, "the background child ends with the hook", func() bool { return !running(pid) })
	assert.Zero(t, out.count("failed"), out.String())
}

func running(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION|windows.SYNCHRONIZE, false, uint32(pid))
	if err != nil {
		return false
	}
	defer windows.CloseHandle(h)
	ev, _ := windows.WaitForSingleObject(h, 0)
	return ev == uint32(windows.WAIT_TIMEOUT)
}
