package sockdir

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// On every OS: a folder of this user's passes, a file does not.
func TestCheckTakesAFolderOfThisUsersOnly(t *testing.T) {
	dir, err := os.MkdirTemp("", "sockdir")
	require.NoError(t, err)
	defer os.RemoveAll(dir)
	require.NoError(t, Check(dir))
	file := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(file, nil, 0o600))
	err = Check(file)
	assert.ErrorIs(t, err, ErrUnsafe)
	assert.Contains(t, err.Error(), "the socket folder "+file+" is not a directory")
}
