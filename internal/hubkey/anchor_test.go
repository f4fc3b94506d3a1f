package hubkey

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A key the hub made is trusted at every start; one written in its place
// (or found where the hub never recorded one) is refused until the user
// gives its fingerprint.
func TestAnchoredRefusesAKeyItDidNotMake(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "askbridge", "hub-key")
	k, made, err := Anchored(path, "")
	require.NoError(t, err)
	assert.True(t, made)
	again, made, err := Anchored(path, "")
	require.NoError(t, err)
	assert.False(t, made)
	assert.Equal(t, k.Public(), again.Public())

	other, err := Open(filepath.Join(dir, "elsewhere", "hub-key"))
	require.NoError(t, err)
	b, err := os.ReadFile(filepath.Join(dir, "elsewhere", "hub-key"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, b, 0o600))
	_, _, err = Anchored(path, "")
	require.ErrorIs(t, err, ErrNotAnchored)
	assert.Contains(t, err.Error(), "names another key")
	assert.Contains(t, err.Error(), "--trust-key "+Fingerprint(other.Public()))
	_, _, err = Anchored(path, Fingerprint(k.Public()))
	assert.ErrorContains(t, err, "has fingerprint "+Fingerprint(other.Public()), "the fingerprint of another key")

	trusted, _, err := Anchored(path, Fingerprint(other.Public()))
	require.NoError(t, err)
	assert.Equal(t, other.Public(), trusted.Public())
	_, _, err = Anchored(path, "")
	assert.NoError(t, err, "trusted once, recorded")

	require.NoError(t, os.Remove(Record(path)))
	_, _, err = Anchored(path, "")
	assert.ErrorContains(t, err, "no record of it")
}
