//go:build unix

package main

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An askbridge's own desk says which agent, editor and folder a set comes
// from, as the hub does, so its page names them instead of a session id.
func TestDeskNamesItsAgentAndFolder(t *testing.T) {
	t.Parallel()
	logFile := filepath.Join(t.TempDir(), "askbridge.log")
	c := startClient(t, "--hub", "off", "--desk", "127.0.0.1:0", "--log-file", logFile)
	dir := t.TempDir()
	s := c.hubSetup(dir)
	c.prompt(s, "_askbridge/ask", map[string]any{"questions": []any{question("Which database?", "Database", false, "Postgres", "SQLite")}})
	c.permissionRequest()

	url := regexp.MustCompile(`desk at (http://localhost:\d+/)`)
	var m []string
	for deadline := time.Now().Add(20 * time.Second); m == nil; time.Sleep(20 * time.Millisecond) {
		require.True(t, time.Now().Before(deadline), "the desk URL never reached the log file")
		b, _ := os.ReadFile(logFile)
		m = url.FindStringSubmatch(string(b))
	}
	req, _ := http.NewRequest("GET", m[1]+"question", nil)
	resp, err := c.deskClient(m[1]).Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var sets []struct {
		CWD      string `json:"cwd"`
		Instance struct {
			Agent  string `json:"agent"`
			Client string `json:"client"`
		} `json:"instance"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&sets))
	require.Len(t, sets, 1)
	assert.Equal(t, dir, sets[0].CWD, "the session's folder")
	assert.Equal(t, "scripted-agent", sets[0].Instance.Agent)
	assert.Equal(t, "Zed", sets[0].Instance.Client)
}
