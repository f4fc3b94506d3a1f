//go:build unix

package main

import (
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The agent runs as the user: it reads every file of askbridge's config
// and state folders (c4ea460 kept the hub's lasting token in
// ~/.config/askbridge/hub-token), the hub's environment
// (ASKBRIDGE_HUB_TOKEN) and what the hub printed, and tries each word it
// finds on the hub's page as a bearer token, a ?token=, a session cookie
// and a session key, to approve its own tool call. None answers; the
// approval waits for the user.
func TestE2EAgentHarvestsNothingThatApprovesAtTheHub(t *testing.T) {
	config := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", config)
	const exported = "exported-hub-token-0123456789"
	t.Setenv("ASKBRIDGE_HUB_TOKEN", exported)
	sock := filepath.Join(privateDir(t), "hub.sock")
	h := startHubProc(t, sock)
	h.page = h.pair(true) // a paired device: the devices file holds its hash
	state := filepath.Join(filepath.Dir(sock), "state")

	// An askbridge of its own (a process the hub is not below: an
	// askbridge refuses a hub in its own tree) asks.
	t.Setenv("ASKBRIDGE_HUB", sock)
	c := startClient(t)
	c.prompt(c.hubSetup(t.TempDir()), "_askbridge/ask", map[string]any{"questions": []any{question("rm -rf ~/important", "Approval", false, "Allow once", "Reject")}})
	c.permissionRequest()
	var sets []struct{ ID string }
	require.Eventually(t, func() bool { h.do("GET", "/question", "", &sets); return len(sets) == 1 }, 10*time.Second, 20*time.Millisecond)

	words := map[string]bool{exported: true}
	for _, dir := range []string{config, state} {
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				b, _ := os.ReadFile(path)
				for _, w := range strings.FieldsFunc(string(b), func(r rune) bool { return strings.ContainsRune(" \t\n\",:{}[]", r) }) {
					words[w] = true
				}
			}
			return nil
		})
	}
	require.Greater(t, len(words), 3, "the folders hold the paired device")
	_, port, _ := strings.Cut(strings.TrimPrefix(h.url, "http://"), ":")
	reply := h.url + "/question/" + sets[0].ID + "/reply"
	for w := range words {
		for _, try := range []func(*http.Request){
			func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+w) },
			func(r *http.Request) { r.URL.RawQuery = "token=" + url.QueryEscape(w) },
			func(r *http.Request) {
				r.Header.Set("Cookie", "askbridge-"+port+"="+w)
				r.Header.Set("X-Askbridge-Key", w)
			},
		} {
			req, _ := http.NewRequest("POST", reply, strings.NewReader(`{"answers":[["Allow once"]]}`))
			try(req)
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			resp.Body.Close()
			require.Equal(t, http.StatusUnauthorized, resp.StatusCode, "a word of the folders or the environment answered: %q", w)
		}
	}
	still := h.waitSets(1, 5*time.Second)
	require.Equal(t, sets[0].ID, still[0].ID, "the set still waits for the user")
}
