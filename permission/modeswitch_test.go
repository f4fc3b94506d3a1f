package permission_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

// A switch finds the mode among the agent's and weighs it: to a mode that
// asks more with a device alone, to one that asks no more only with the
// user's presence; a mode the agent does not offer is refused, and the
// session's own mode is nothing to switch. The bridge and the hub both
// switch through it.
func TestASwitchFindsTheModeAndWeighsIt(t *testing.T) {
	cur := permission.SessionMode{ID: "auto", Name: "Auto", Asks: 1, Available: []permission.ModeOption{
		{ID: "ask", Name: "Ask", Asks: 2}, {ID: "auto", Name: "Auto", Asks: 1}, {ID: "yolo", Asks: 0}}}
	device := permission.By{Name: "phone"}
	present := permission.By{Name: "phone", Proof: permission.ProofPresence}

	to, err := cur.Switch("ask", device)
	require.NoError(t, err, "a mode that asks more needs no passkey")
	assert.Equal(t, "Ask", to.Name)

	_, err = cur.Switch("yolo", device)
	require.ErrorIs(t, err, permission.ErrModeNeedsPresence)
	to, err = cur.Switch("yolo", present)
	require.NoError(t, err)
	assert.Equal(t, "yolo", to.ID)
	assert.Equal(t, "yolo", to.Title(), "a mode without a name is named by its id")

	to, err = cur.Switch("auto", device)
	require.NoError(t, err, "the session's own mode needs nothing")
	assert.Equal(t, cur.ID, to.ID, "nothing to switch")

	_, err = cur.Switch("plan", present)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `no mode "plan"`)
	assert.Equal(t, "Auto", cur.Title())
}
