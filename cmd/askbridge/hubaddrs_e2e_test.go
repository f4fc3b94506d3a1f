//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A hub on every interface prints an address a phone can open, never
// http://[::]:PORT/ (it did for --listen :PORT), and its pairing link is at
// one too.
func TestE2EHubOnEveryInterfacePrintsOpenableAddresses(t *testing.T) {
	t.Parallel()
	page, link, _ := startHubStderr(t, "--listen", ":0", "--allow-remote-http")
	for _, s := range []string{page, link} {
		assert.NotContains(t, s, "[::]", "an unspecified address")
		assert.NotContains(t, s, "0.0.0.0", "an unspecified address")
		assert.Regexp(t, `^http://[^/]+:\d+/`, s)
	}
}

// With --public-url, askbridge hub pair's link is at it (it was the
// listener's address).
func TestE2EHubPairPrintsThePublicURL(t *testing.T) {
	t.Parallel()
	dir, err := os.MkdirTemp("", "abpub")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "hub.sock")
	startHubProc(t, sock, "--public-url", "https://hub.example.net/")
	cmd := exec.Command(askbridgeBin, "hub", "pair")
	cmd.Env = append(os.Environ(), "ASKBRIDGE_HUB="+sock)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	assert.Regexp(t, regexp.MustCompile(`type it at https://hub\.example\.net/, or open https://hub\.example\.net/#pair=[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{14}\n$`), string(out))
}
