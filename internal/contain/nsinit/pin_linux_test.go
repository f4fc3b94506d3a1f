package nsinit

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Every parent of a hidden folder inside the home is pinned, outermost
// first, the home itself and what lies outside it (root's) not.
func TestPinnedAreTheParentsInsideTheHome(t *testing.T) {
	got := pinned([]string{"/home/u/.local/state/askbridge", "/run/user/1/askbridge", "/home/u/.config/askbridge", "/home/u/.local/x/y"}, "/home/u", 0)
	assert.Equal(t, []string{"/home/u/.local", "/home/u/.config", "/home/u/.local/x", "/home/u/.local/state"}, got)
	assert.Empty(t, pinned([]string{"/home/u/askbridge"}, "/home/u", 0))
	assert.Empty(t, pinned([]string{"/a/b"}, "", 0))
}

// dir is filepath.Dir for the clean, absolute paths the init is given.
func TestDirIsTheFolder(t *testing.T) {
	for path, want := range map[string]string{"/home/u/.config": "/home/u", "/home": "/", "/": "/", "/a/b/c": "/a/b"} {
		assert.Equal(t, want, dir(path), path)
	}
}
