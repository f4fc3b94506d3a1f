package desk

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An approval goes through with a user-verified assertion of the device's
// passkey, for exactly the answers it was asked for, once; without user
// verification, with no assertion, replayed, or for other answers, it is
// refused by the server, whatever the page does.
func TestApprovalTakesAUserVerifiedPasskey(t *testing.T) {
	s, board := newDesk(t, Options{})
	tk := openApproval(board)
	browser := newLocalhost(t, s)
	key := newSoftKey(t, browser.origin())
	require.Equal(t, 200, browser.pairWith(key, flagUP|flagUV))
	allow := [][]string{{"Allow once"}}
	reply := func(assertion any, answers [][]string) int {
		return browser.post("/question/"+tk.ID+"/reply", map[string]any{"answers": answers, "step": 0, "assertion": assertion}, nil)
	}

	assert.Equal(t, http.StatusForbidden, reply(nil, allow), "no assertion")
	ch := browser.challenge(tk.ID, allow)
	assert.Equal(t, http.StatusForbidden, reply(key.get(t, ch, flagUP), allow), "touched, not verified")
	ch = browser.challenge(tk.ID, [][]string{{"Reject"}})
	assert.Equal(t, http.StatusForbidden, reply(key.get(t, ch, flagUP|flagUV), allow), "asked for other answers")
	ch = browser.challenge(tk.ID, allow)
	assert.Equal(t, http.StatusForbidden, reply(newSoftKey(t, browser.origin()).get(t, ch, flagUP|flagUV), allow), "another key")
	ch = browser.challenge(tk.ID, allow)
	other := *key
	other.Origin = "http://localhost:1"
	assert.Equal(t, http.StatusForbidden, reply(other.get(t, ch, flagUP|flagUV), allow), "signed for another origin")
	select {
	case <-tk.Done():
		t.Fatal("approved without the user")
	default:
	}

	ch = browser.challenge(tk.ID, allow)
	good := key.get(t, ch, flagUP|flagUV)
	require.Equal(t, http.StatusOK, reply(good, allow))
	<-tk.Done()
	assert.Equal(t, []string{"Allow once"}, tk.Result().Answers[0].Answer.Labels)

	again := openApproval(board)
	assert.Equal(t, http.StatusForbidden, browser.post("/question/"+again.ID+"/reply", map[string]any{"answers": allow, "step": 0, "assertion": good}, nil), "replayed")
}

// A passkey that did not verify the user is refused at pairing.
func TestPairingRefusesAPasskeyWithoutUserVerification(t *testing.T) {
	s, _ := newDesk(t, Options{})
	browser := newLocalhost(t, s)
	assert.Equal(t, http.StatusForbidden, browser.pairWith(newSoftKey(t, browser.origin()), flagUP))
	assert.Empty(t, s.Devices().List())
}
