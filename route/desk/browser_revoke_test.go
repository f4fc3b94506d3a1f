//go:build browser

package desk

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The page's Revoke button for another device asks for this page's
// passkey (a DevTools virtual authenticator): with the user not verified
// the device stays paired, verified it goes.
func TestBrowserRevokesAnotherDeviceWithItsPasskey(t *testing.T) {
	needBrowser(t)
	s, _ := newDesk(t, Options{})
	phone, _, err := s.Devices().Add("old phone", "", nil, nil, false)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	code, _ := s.Devices().NewCode()
	out, err := exec.CommandContext(ctx, "node", "e2e/revoke.mjs", s.URL(), code, "old phone").CombinedOutput()
	require.NoError(t, err, string(out))
	got := string(out)
	assert.Contains(t, got, "LISTED 2")
	assert.Contains(t, got, "AFTER UNVERIFIED 2", "not revoked without the user")
	assert.Contains(t, got, "REVOKED test browser (this browser)")
	_, ok := s.Devices().Get(phone.ID)
	assert.False(t, ok)
}
