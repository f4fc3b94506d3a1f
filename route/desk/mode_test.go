package desk

import (
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

// A paired device switches a card's session to a mode that asks more with
// its session alone; to one that asks less the server refuses (403,
// presence) until the request carries a user-verified assertion of the
// device's passkey for that very mode. The board's switcher (here a fake of
// the bridge's rule) hears who switched and with what proof.
func TestAModeSwitchThatAsksLessTakesThePasskey(t *testing.T) {
	s, board := newDesk(t, Options{})
	tk := openApproval(board)
	var mu sync.Mutex
	var heard []permission.By
	board.HandleModes(func(set permission.Pending, mode string, by permission.By) error {
		mu.Lock()
		defer mu.Unlock()
		if mode == "auto" && !by.Proof.Has(permission.ProofPresence) {
			return permission.ErrModeNeedsPresence
		}
		heard = append(heard, by)
		return nil
	})
	browser := newLocalhost(t, s)
	key := newSoftKey(t, browser.origin())
	require.Equal(t, 200, browser.pairWith(key, flagUP|flagUV))
	path := "/question/" + tk.ID + "/mode"

	assert.Equal(t, http.StatusOK, browser.post(path, map[string]any{"mode": "default"}, nil), "asking more takes the device")
	var refused struct{ Presence bool }
	assert.Equal(t, http.StatusForbidden, browser.post(path, map[string]any{"mode": "auto"}, &refused))
	assert.True(t, refused.Presence, "the page is told to ask for the passkey")

	ask := func(mode string) string {
		var opts struct{ PublicKey struct{ Challenge string } }
		require.Equal(t, 200, browser.post(path+"/presence", map[string]any{"mode": mode}, &opts))
		return opts.PublicKey.Challenge
	}
	ch := ask("default")
	assert.Equal(t, http.StatusForbidden, browser.post(path, map[string]any{"mode": "auto", "assertion": key.get(t, ch, flagUP|flagUV)}, nil), "a passkey given for another mode")
	ch = ask("auto")
	assert.Equal(t, http.StatusForbidden, browser.post(path, map[string]any{"mode": "auto", "assertion": key.get(t, ch, flagUP)}, nil), "not user-verified")
	ch = ask("auto")
	require.Equal(t, http.StatusOK, browser.post(path, map[string]any{"mode": "auto", "assertion": key.get(t, ch, flagUP|flagUV)}, nil))

	mu.Lock()
	defer mu.Unlock()
	require.Len(t, heard, 2)
	assert.Equal(t, permission.RoutePage, heard[0].Route)
	assert.False(t, heard[0].Proof.Has(permission.ProofPresence))
	assert.True(t, heard[1].Proof.Has(permission.ProofPresence|permission.ProofDevice))
	assert.Equal(t, "test laptop", heard[1].Name)
	assert.Equal(t, permission.SourceDesk, heard[1].Source)
}
