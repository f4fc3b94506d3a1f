package main

import (
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/internal/pty"
	"github.com/askbridge/askbridge/route/desk"
)

// The desk's address is on stderr and in --log-file (an editor may hide
// stderr), with nothing there that answers: what the agent reads of the
// editor's log pairs nothing and answers nothing. Its pairing code is on
// askbridge's terminal only, and pairs there. (On c4ea460 the log held the
// desk's lasting token, which answered and approved.)
func TestDeskPairingCodeIsOnTheTerminalOnly(t *testing.T) {
	logFile := filepath.Join(t.TempDir(), "askbridge.log")
	cmd := exec.Command(askbridgeBin, "--desk", "127.0.0.1:0", "--log-file", logFile, "--", "cat")
	cmd.Env = append(os.Environ(), "GORACE=atexit_sleep_ms=0")
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	cmd.Stdout = io.Discard
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	term, err := pty.Start(cmd)
	if err != nil {
		t.Skip("no pseudo-terminal here:", err)
	}
	t.Cleanup(func() {
		stdin.Close()
		cmd.Process.Kill()
		cmd.Wait()
		term.Close()
	})
	screen := &lockedBuffer{}
	go io.Copy(screen, term)

	codeRe := regexp.MustCompile(`desk pairing code ([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})`)
	urlRe := regexp.MustCompile(`desk at (http://localhost:\d+/)`)
	var code, url []string
	for deadline := time.Now().Add(20 * time.Second); code == nil || url == nil; time.Sleep(20 * time.Millisecond) {
		require.True(t, time.Now().Before(deadline), "no code on the terminal or no address in the log; terminal:\n%s\nstderr:\n%s", screen.String(), stderr.String())
		b, _ := os.ReadFile(logFile)
		code, url = codeRe.FindStringSubmatch(screen.String()), urlRe.FindStringSubmatch(string(b))
	}
	logged, _ := os.ReadFile(logFile)
	for what, text := range map[string]string{"the log file": string(logged), "stderr": stderr.String()} {
		assert.NotContains(t, text, code[1], what)
		assert.NotContains(t, text, "token", what)
		assert.Contains(t, text, url[1], what)
	}
	resp, err := http.Get(url[1] + "question")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, "what the log says answers nothing")

	c, err := desk.Pair(t.Context(), url[1], code[1], false)
	require.NoError(t, err, "the terminal's code pairs")
	resp, err = c.Get(url[1] + "question")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	_, err = desk.Pair(t.Context(), url[1], code[1], false)
	assert.Error(t, err, "once")
	assert.True(t, strings.HasPrefix(url[1], "http://localhost:"))
}

// The desk's lasting token is gone: ASKBRIDGE_DESK_TOKEN in the
// environment (the editor's, which the agent reads in /proc) is no key.
func TestDeskTakesNoTokenFromTheEnvironment(t *testing.T) {
	logFile := filepath.Join(t.TempDir(), "askbridge.log")
	t.Setenv("ASKBRIDGE_DESK_TOKEN", "a-token-of-sixteen+")
	startClient(t, "--desk", "127.0.0.1:0", "--log-file", logFile)
	urlRe := regexp.MustCompile(`desk at (http://localhost:\d+/)`)
	var m []string
	for deadline := time.Now().Add(20 * time.Second); m == nil; time.Sleep(20 * time.Millisecond) {
		require.True(t, time.Now().Before(deadline), "the desk URL never reached the log file")
		b, _ := os.ReadFile(logFile)
		m = urlRe.FindStringSubmatch(string(b))
	}
	for _, u := range []string{m[1] + "question", m[1] + "question?token=a-token-of-sixteen%2B"} {
		req, _ := http.NewRequest("GET", u, nil)
		req.Header.Set("Authorization", "Bearer a-token-of-sixteen+")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, u)
	}
}
