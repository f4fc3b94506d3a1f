package desk

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A passkey whose signature counter does not grow past the last one seen
// is a copy signing beside the original (WebAuthn §7.2 step 21): its
// assertion approves nothing, and the counter kept is not moved by it.
// Accepted before (go-webauthn only flags it).
func TestAClonedPasskeysAssertionIsRefused(t *testing.T) {
	s, board := newDesk(t, Options{})
	browser := newLocalhost(t, s)
	key := newSoftKey(t, browser.origin())
	require.Equal(t, 200, browser.pairWith(key, flagUP|flagUV))
	allow := [][]string{{"Allow once"}}
	approve := func(k *softKey) int {
		tk := openApproval(board)
		ch := browser.challenge(tk.ID, allow)
		return browser.post("/question/"+tk.ID+"/reply", map[string]any{"answers": allow, "step": 0, "assertion": k.get(t, ch, flagUP|flagUV)}, nil)
	}
	require.Equal(t, http.StatusOK, approve(key), "the passkey itself")
	clone := *key
	clone.Count = key.Count - 1 // signs the counter the original last used
	assert.Equal(t, http.StatusForbidden, approve(&clone), "a copy, with the same counter")
	clone.Count = 0
	assert.Equal(t, http.StatusForbidden, approve(&clone), "a copy starting again")
	dev := s.Devices().List()[0]
	assert.Equal(t, key.Count, dev.Passkey.Authenticator.SignCount, "the counter kept is the original's")
	require.Equal(t, http.StatusOK, approve(key), "the original goes on")
}
