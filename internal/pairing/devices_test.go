package pairing

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCodeIsSingleUse(t *testing.T) {
	d := Memory()
	code, exp := d.NewCode()
	assert.Regexp(t, `^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$`, code)
	assert.WithinDuration(t, time.Now().Add(CodeTTL), exp, time.Second)
	require.NoError(t, d.Redeem(strings.ToLower(strings.ReplaceAll(code, "-", " ")), "me"), "typed in lower case, with a space")
	assert.ErrorIs(t, d.Redeem(code, "me"), ErrBadCode, "a second time")
}

func TestCodeExpires(t *testing.T) {
	d := Memory()
	now := time.Now()
	d.now = func() time.Time { return now }
	code, _ := d.NewCode()
	now = now.Add(CodeTTL)
	assert.ErrorIs(t, d.Redeem(code, "me"), ErrBadCode)
}

func TestSessionsAreHashedAtRestAndSurviveARestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "devices.json")
	d, err := Open(path, testKey)
	require.NoError(t, err)
	dev, s, err := d.Add("phone", "", nil, nil, false)
	require.NoError(t, err)
	got, ok := d.Check(s)
	require.True(t, ok)
	assert.Equal(t, dev.ID, got.ID)
	_, ok = d.Check(Session{Cookie: s.Cookie, Key: "x" + s.Key})
	assert.False(t, ok, "the cookie alone (a wrong key) is no session")
	_, ok = d.Check(Session{Cookie: s.Cookie})
	assert.False(t, ok)

	fi, err := os.Stat(path)
	require.NoError(t, err)
	if runtime.GOOS != "windows" { // Windows keeps ACLs, not modes (sockdir checks the owner there)
		assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	}
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	_, secret, _ := strings.Cut(s.Cookie, ".")
	assert.NotContains(t, string(raw), secret)
	assert.NotContains(t, string(raw), s.Key)

	again, err := Open(path, testKey)
	require.NoError(t, err)
	_, ok = again.Check(s)
	assert.True(t, ok, "a restart keeps the device")
	require.NoError(t, again.Revoke(dev.ID))
	_, ok = again.Check(s)
	assert.False(t, ok, "revoked")
	third, err := Open(path, testKey)
	require.NoError(t, err)
	assert.Empty(t, third.List(), "the revocation was kept")
	assert.Error(t, third.Revoke(dev.ID))
}

func TestNoPasskeyApprovalsOnlyWithoutAPasskey(t *testing.T) {
	d := Memory()
	dev, _, err := d.Add("", "", nil, nil, true)
	require.NoError(t, err)
	assert.True(t, dev.NoPasskeyApprovals)
	assert.Equal(t, "a browser", dev.Name)
}
