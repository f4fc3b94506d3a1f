//go:build unix

package hubkey

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The key is made once, 0600 in a 0700 folder, and read back the same; a
// folder or a file another user could read, or a link, is refused.
func TestTheKeyIsTheUsersAlone(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "askbridge")
	path := filepath.Join(dir, "hub-key")
	k, err := Open(path)
	require.NoError(t, err)
	for p, mode := range map[string]os.FileMode{dir: 0o700, path: 0o600, path + ".pub": 0o600} {
		fi, err := os.Stat(p)
		require.NoError(t, err)
		assert.Equal(t, mode, fi.Mode().Perm(), p)
	}
	again, err := Open(path)
	require.NoError(t, err)
	assert.Equal(t, k.Public(), again.Public(), "read back, not made anew")
	assert.Equal(t, k.Derive("x"), again.Derive("x"))
	assert.NotEqual(t, k.Derive("x"), k.Derive("y"))

	require.NoError(t, os.Chmod(path, 0o644))
	_, err = Open(path)
	assert.ErrorContains(t, err, "has mode 0644")
	require.NoError(t, os.Chmod(path, 0o600))
	require.NoError(t, os.Chmod(dir, 0o755))
	_, err = Open(path)
	assert.ErrorContains(t, err, "has mode 0755")
	require.NoError(t, os.Chmod(dir, 0o700))

	linked := t.TempDir()
	require.NoError(t, os.Chmod(linked, 0o700))
	other := filepath.Join(linked, "hub-key")
	require.NoError(t, os.Symlink(path, other))
	_, err = Open(other)
	assert.ErrorContains(t, err, "not a regular file")

	require.NoError(t, os.WriteFile(path, []byte("not a key\n"), 0o600))
	_, err = Open(path)
	assert.ErrorContains(t, err, "is not one askbridge wrote")
}

// Clients trust $ASKBRIDGE_HUB_KEY, else this machine's public key file;
// with neither they say what to do, and take no key from anywhere else.
func TestTrusted(t *testing.T) {
	config := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", config)
	t.Setenv(Env, "")
	_, err := Trusted()
	assert.ErrorContains(t, err, "no hub key to trust")

	path, err := Path()
	require.NoError(t, err)
	k, err := Open(path)
	require.NoError(t, err)
	got, err := Trusted()
	require.NoError(t, err)
	assert.Equal(t, k.Public(), got)

	other := Generate()
	t.Setenv(Env, Format(other.Public()))
	got, err = Trusted()
	require.NoError(t, err)
	assert.Equal(t, other.Public(), got)
	t.Setenv(Env, "ed25519:short")
	_, err = Trusted()
	assert.ErrorContains(t, err, "is not a hub key")
}

// A page's proof holds for its nonce, context and host only.
func TestProof(t *testing.T) {
	k := Generate()
	nonce := []byte("0123456789abcdef0123456789abcdef")
	sig, err := k.Prove(PageContext, "localhost:7683", nonce)
	require.NoError(t, err)
	assert.True(t, Verify(k.Public(), PageContext, "localhost:7683", nonce, sig))
	assert.False(t, Verify(k.Public(), PageContext, "localhost:7684", nonce, sig), "another host")
	assert.False(t, Verify(k.Public(), "other", "localhost:7683", nonce, sig), "another context")
	assert.False(t, Verify(Generate().Public(), PageContext, "localhost:7683", nonce, sig), "another key")
	_, err = k.Prove(PageContext, "h", []byte("short"))
	assert.Error(t, err)
}
