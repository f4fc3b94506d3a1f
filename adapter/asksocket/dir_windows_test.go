package asksocket

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/windows"

	"github.com/askbridge/askbridge/testkit/testenv"
)

// TestAskSocketDirIsTheUsersAlone checks the directory's DACL: protected
// from inheritance, with one entry, for the user askbridge runs as.
func TestAskSocketDirIsTheUsersAlone(t *testing.T) {
	t.Setenv("LOCALAPPDATA", t.TempDir())
	dir, err := askSocketDir()
	require.NoError(t, err, "setting the DACL")
	defer os.RemoveAll(dir)
	cache, err := os.UserCacheDir()
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(cache, "askbridge"), filepath.Dir(dir), "under %%LOCALAPPDATA%%")
	testenv.SkipUnderWine(t, testenv.NoFileACLs)

	sd, err := windows.GetNamedSecurityInfo(dir, windows.SE_FILE_OBJECT, windows.DACL_SECURITY_INFORMATION)
	require.NoError(t, err)
	control, _, err := sd.Control()
	require.NoError(t, err)
	assert.NotZero(t, control&windows.SE_DACL_PROTECTED, "inherited entries are dropped")
	user, err := windows.GetCurrentProcessToken().GetTokenUser()
	require.NoError(t, err)
	assert.Equal(t, "D:P(A;OICI;FA;;;"+user.User.Sid.String()+")", daclString(t, sd))
}

// daclString is the DACL part of sd in SDDL.
func daclString(t *testing.T, sd *windows.SECURITY_DESCRIPTOR) string {
	t.Helper()
	s := sd.String()
	i := strings.Index(s, "D:")
	require.GreaterOrEqual(t, i, 0, "no DACL in %s", s)
	return s[i:]
}
