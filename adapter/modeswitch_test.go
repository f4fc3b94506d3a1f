package adapter

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

// A paired device switches a card's session from the page: to a mode that
// asks more the bridge sends the agent session/set_mode on the user's
// behalf and tells the editor who did; to one that asks less it refuses
// without the user's presence, and the agent hears nothing.
func TestAModeSwitchFromThePageReachesTheAgent(t *testing.T) {
	h, heard := modeHarness(t, ApprovalsClient)
	tk := h.bridge.board.Open(permission.Request{SessionID: "s1", Questions: []permission.Question{{Question: "Which?", Header: "H",
		Options: []permission.Option{{Label: "a"}, {Label: "b"}}}}})
	phone := permission.By{Device: "d1", Name: "Pixel 8", Route: permission.RoutePage, Proof: permission.ProofDevice, Source: permission.SourceHub}

	assert.ErrorIs(t, h.bridge.board.RequestMode(tk.ID, "bypassPermissions", phone), permission.ErrModeNeedsPresence)
	assert.ErrorContains(t, h.bridge.board.RequestMode(tk.ID, "yolo", phone), `the agent offers no mode "yolo"`)

	done := make(chan error, 1)
	go func() { done <- h.bridge.board.RequestMode(tk.ID, "default", phone) }()
	req := decode(t, h.Agent.Recv())
	assert.Equal(t, "session/set_mode", req.Method, "the first the agent hears is the switch to a mode that asks more")
	assert.JSONEq(t, `{"sessionId":"s1","modeId":"default"}`, string(req.Params))
	h.Agent.Send(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{}}`)
	require.NoError(t, <-done)
	said := decode(t, h.Client.Recv())
	assert.Contains(t, string(said.Params), `switched to \"Manual\" from the hub's page by Pixel 8`)
	m, _ := h.bridge.Mode("s1")
	assert.Equal(t, "default", m.ID)
	assert.Len(t, heard(), 2, "the cards hear the new mode")

	withPasskey := phone
	withPasskey.Proof |= permission.ProofPresence
	go func() { done <- h.bridge.board.RequestMode(tk.ID, "bypassPermissions", withPasskey) }()
	req = decode(t, h.Agent.Recv())
	assert.JSONEq(t, `{"sessionId":"s1","modeId":"bypassPermissions"}`, string(req.Params))
	h.Agent.Send(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"error":{"code":-32603,"message":"not allowed"}}`)
	assert.ErrorContains(t, <-done, "the agent did not switch")
	m, _ = h.bridge.Mode("s1")
	assert.Equal(t, "default", m.ID, "a switch the agent refused changes nothing")
}
