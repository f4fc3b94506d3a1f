//go:build unix

package asksocket

import (
	"os"
	"path/filepath"
	goruntime "runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/internal/askwire"
)

func TestAskSocketIsInARuntimeDirOnlyTheUserCanOpen(t *testing.T) {
	runtime := t.TempDir()
	require.NoError(t, os.Chmod(runtime, 0o700)) // as a real one is
	t.Setenv("XDG_RUNTIME_DIR", runtime)
	s, err := Listen()
	require.NoError(t, err)
	defer s.Close()
	env, path := s.Env(), s.Path()
	assert.Equal(t, []string{askwire.SocketEnv + "=" + path}, env)
	assert.Equal(t, filepath.Join(runtime, "askbridge"), filepath.Dir(filepath.Dir(path)), "under $XDG_RUNTIME_DIR")
	fi, err := os.Stat(filepath.Dir(path))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), fi.Mode().Perm())
	fi, err = os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())

	s.Close()
	_, err = os.Stat(filepath.Dir(path))
	assert.ErrorIs(t, err, os.ErrNotExist, "Close removes the directory")
}

// Without XDG_RUNTIME_DIR the folder is in the user's cache folder, not
// the shared temporary one.
func TestAskSocketFallsBackToTheCacheFolder(t *testing.T) {
	if goruntime.GOOS == "darwin" {
		t.Skip("macOS takes its per-user TMPDIR")
	}
	cache := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", "")
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("TMPDIR", t.TempDir())
	dir, err := askSocketDir()
	require.NoError(t, err)
	defer os.RemoveAll(dir)
	assert.Equal(t, filepath.Join(cache, "askbridge"), filepath.Dir(dir))
	fi, err := os.Stat(dir)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), fi.Mode().Perm(), "0700")
}

// A private folder made open by hand is refused, with what is wrong.
func TestAskSocketRefusesAnOpenFolder(t *testing.T) {
	runtime := t.TempDir()
	require.NoError(t, os.Chmod(runtime, 0o700))
	t.Setenv("XDG_RUNTIME_DIR", runtime)
	require.NoError(t, os.Mkdir(filepath.Join(runtime, "askbridge"), 0o700))
	require.NoError(t, os.Chmod(filepath.Join(runtime, "askbridge"), 0o755))
	_, err := Listen()
	require.Error(t, err)
	assert.Contains(t, err.Error(), filepath.Join(runtime, "askbridge")+" has mode 0755")
}
