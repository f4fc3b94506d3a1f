//go:build unix

package sockdir

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheckRefusesWhatAnotherUserCouldControl(t *testing.T) {
	base := t.TempDir()
	private := filepath.Join(base, "private")
	require.NoError(t, os.Mkdir(private, 0o700))
	require.NoError(t, Check(private))

	open := filepath.Join(base, "open")
	require.NoError(t, os.Mkdir(open, 0o700))
	require.NoError(t, os.Chmod(open, 0o755))
	err := Check(open)
	assert.ErrorIs(t, err, ErrUnsafe)
	assert.Contains(t, err.Error(), "the socket folder "+open+" has mode 0755")

	link := filepath.Join(base, "link")
	require.NoError(t, os.Symlink(private, link))
	err = Check(link)
	assert.ErrorIs(t, err, ErrUnsafe)
	assert.Contains(t, err.Error(), "the socket folder "+link+" is a symbolic link")

	file := filepath.Join(base, "file")
	require.NoError(t, os.WriteFile(file, nil, 0o600))
	assert.ErrorIs(t, Check(file), ErrUnsafe)

	assert.EqualError(t, Check(filepath.Join(base, "none")), "the socket folder "+filepath.Join(base, "none")+" does not exist")
}

func TestCheckRefusesAFolderOfAnotherUid(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root, to give a folder to another uid")
	}
	dir := filepath.Join(t.TempDir(), "theirs")
	require.NoError(t, os.Mkdir(dir, 0o700))
	require.NoError(t, os.Chown(dir, 65534, 65534))
	err := Check(dir)
	assert.ErrorIs(t, err, ErrUnsafe)
	assert.Contains(t, err.Error(), "is owned by uid 65534, not this user's 0")
}

// Without XDG_RUNTIME_DIR, the sockets go under the user's cache folder,
// never a shared temporary folder another user can create first.
func TestBaseWithoutRuntimeDirIsInTheCacheFolder(t *testing.T) {
	if runtime.GOOS == "darwin" {
		t.Skip("macOS takes its per-user TMPDIR")
	}
	cache := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", "")
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("HOME", cache)
	t.Setenv("TMPDIR", t.TempDir())
	dir, err := Base()
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(cache, "askbridge"), dir)
	fi, err := os.Stat(dir)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), fi.Mode().Perm())

	// A runtime folder open to others is passed over, too.
	open := t.TempDir()
	require.NoError(t, os.Chmod(open, 0o755))
	t.Setenv("XDG_RUNTIME_DIR", open)
	dir, err = Base()
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(cache, "askbridge"), dir)

	// An askbridge folder made open by hand is refused, not used.
	require.NoError(t, os.Chmod(filepath.Join(cache, "askbridge"), 0o755))
	_, err = Base()
	assert.ErrorIs(t, err, ErrUnsafe)
}

func TestDialChecksTheFolderFirst(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s")
	require.NoError(t, os.Mkdir(dir, 0o700))
	path := filepath.Join(dir, "x.sock")
	ln, err := net.Listen("unix", path)
	require.NoError(t, err)
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	c, err := Dial(context.Background(), path)
	require.NoError(t, err)
	c.Close()

	require.NoError(t, os.Chmod(dir, 0o711))
	_, err = Dial(context.Background(), path)
	assert.ErrorIs(t, err, ErrUnsafe)
}
