package main

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDeskTokenUnder16CharactersIsRefused(t *testing.T) {
	cmd := exec.Command(askbridgeBin, "--desk", "127.0.0.1:0", "--", "true")
	cmd.Env = append(os.Environ(), "ASKBRIDGE_DESK_TOKEN=short", "GORACE=atexit_sleep_ms=0")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, string(out))
	assert.Equal(t, 2, exit.ExitCode())
	assert.Equal(t, "askbridge: ASKBRIDGE_DESK_TOKEN: the desk token has 5 characters; it needs at least 16 (or leave it unset for a random one)\n", string(out))
}

// An editor may hide askbridge's stderr: the desk's address is in
// --log-file as well, and it works.
func TestDeskURLIsWrittenToTheLogFile(t *testing.T) {
	logFile := filepath.Join(t.TempDir(), "askbridge.log")
	t.Setenv("ASKBRIDGE_DESK_TOKEN", "a-token-of-sixteen+")
	startClient(t, "--desk", "127.0.0.1:0", "--log-file", logFile)
	url := regexp.MustCompile(`desk at (http://127\.0\.0\.1:\d+/)\?token=a-token-of-sixteen\+`)
	var m []string
	for deadline := time.Now().Add(20 * time.Second); m == nil; time.Sleep(20 * time.Millisecond) {
		require.True(t, time.Now().Before(deadline), "the desk URL never reached the log file")
		b, _ := os.ReadFile(logFile)
		m = url.FindStringSubmatch(string(b))
	}
	req, _ := http.NewRequest("GET", m[1]+"question", nil)
	req.Header.Set("Authorization", "Bearer a-token-of-sixteen+")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, 200, resp.StatusCode)
}
