//go:build unix

package adapter

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAskSocketIsInARuntimeDirOnlyTheUserCanOpen(t *testing.T) {
	runtime := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", runtime)
	b := NewBridge(Options{})
	env, err := b.Listen()
	require.NoError(t, err)
	defer b.Close()
	path := b.socket.Addr().String()
	assert.Equal(t, []string{SocketEnv + "=" + path}, env)
	assert.Equal(t, runtime, filepath.Dir(filepath.Dir(path)), "under $XDG_RUNTIME_DIR")
	fi, err := os.Stat(filepath.Dir(path))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), fi.Mode().Perm())
	fi, err = os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())

	b.Close()
	_, err = os.Stat(filepath.Dir(path))
	assert.ErrorIs(t, err, os.ErrNotExist, "Close removes the directory")
}

func TestAskSocketFallsBackToTMPDIR(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", "")
	t.Setenv("TMPDIR", tmp)
	dir, err := askSocketDir()
	require.NoError(t, err)
	defer os.RemoveAll(dir)
	assert.Equal(t, tmp, filepath.Dir(dir))
	fi, err := os.Stat(dir)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), fi.Mode().Perm(), "0700")
}
