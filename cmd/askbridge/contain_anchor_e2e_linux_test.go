package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// On an account where no hub has run yet, askbridge's folders did not
// exist, so nothing was hidden: the contained agent made them and left
// there a hub key (and devices) of its own, which the user's first hub
// took as its own. askbridge now makes them before the agent starts, a
// hub socket's folder given with --hub too.
func TestContainedAgentCannotPlantOnAFreshAccount(t *testing.T) {
	t.Parallel()
	c := startProbe(t, true, "--hub", flagHub)
	t.Run("its writes stay in the container", func(t *testing.T) { c.nothingPlanted(t) })
	t.Run("it cannot rename their parents away", func(t *testing.T) { c.parentsPinned(t) })
	t.Run("it cannot run a hub", func(t *testing.T) { c.noHubInside(t) })
}

// flagHub, as --hub's value to startProbe, is a socket in a folder of
// its own in the home.
const flagHub = "{flaghub}"

// nothingPlanted wants no file of the agent's in askbridge's folders as
// the user sees them, nor a parent of theirs moved away.
func (c *contained) nothingPlanted(t *testing.T) {
	require.NotEmpty(t, waitFile(t, filepath.Join(c.out, "plant")))
	for _, d := range c.hidden {
		b, err := os.ReadFile(filepath.Join(d, "hub-key"))
		assert.True(t, os.IsNotExist(err), "%s: the agent's key reached the user's disk: %q", d, b)
	}
}

// parentsPinned wants `mv ~/.config ~/.config.old` (and the state folder's
// parents') refused, from a namespace of the agent's own too: the kernel
// does not rename a mount point.
func (c *contained) parentsPinned(t *testing.T) {
	got := waitFile(t, filepath.Join(c.out, "rename"))
	lines := strings.Split(got, "\n")
	require.GreaterOrEqual(t, len(lines), 3, got)
	for _, l := range lines {
		assert.Contains(t, strings.ToLower(l), "device or resource busy", l)
	}
	for _, d := range []string{".config.old", ".local.old", filepath.Join(".local", "state.old")} {
		_, err := os.Lstat(filepath.Join(c.home, d))
		assert.True(t, os.IsNotExist(err), "%s exists", d)
	}
}

// noHubInside wants `askbridge hub`, `hub pair`, `hub devices` and `hub
// revoke` refused inside the container, each with one line that says so.
func (c *contained) noHubInside(t *testing.T) {
	got := waitFile(t, filepath.Join(c.out, "hub"))
	lines := strings.Split(got, "\n")
	require.Len(t, lines, 4, got)
	for _, l := range lines {
		assert.Contains(t, l, "refused: this runs inside an agent's askbridge container", l)
		assert.Contains(t, l, "(exit status 1)", l)
	}
}
