package pairing

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var testKey = []byte("a key the hub's key derives, 32 bytes")

// The agent runs as the user and can write the hub's devices file: it adds
// a device whose session it made itself (any passkey, or approvals without
// one), and waits for the hub's next start. The file is sealed with a key
// derived from the hub's: an edited file is refused, moved aside, and its
// devices dropped (before the seal, the added device approved after the
// restart).
func TestAnEditedDevicesFileAddsNoApprover(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hub-devices.json")
	d, err := Open(path, testKey)
	require.NoError(t, err)
	_, mine, err := d.Add("laptop", "", nil, nil, false)
	require.NoError(t, err)

	// The agent's device: a session of its own making, approving without
	// a passkey, written in wherever the file lists devices.
	theirs := &Device{ID: "agent1", Name: "agent", Hash: hash("cookie", "key"), NoPasskeyApprovals: true}
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	var list []json.RawMessage
	var env map[string]json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		require.NoError(t, json.Unmarshal(raw, &env))
		require.NoError(t, json.Unmarshal(env["devices"], &list))
	}
	b, _ := json.Marshal(theirs)
	list = append(list, b)
	edited, _ := json.Marshal(list)
	if env != nil {
		env["devices"] = edited
		edited, _ = json.Marshal(env)
	}
	require.NoError(t, os.WriteFile(path, edited, 0o600))

	again, err := Open(path, testKey)
	require.ErrorIs(t, err, ErrUnsealed)
	assert.Contains(t, err.Error(), "changed since the hub wrote it")
	require.NotNil(t, again)
	_, ok := again.Check(Session{Cookie: "agent1.cookie", Key: "key"})
	assert.False(t, ok, "the device the agent wrote in is no device")
	_, ok = again.Check(mine)
	assert.False(t, ok, "a tampered file's devices are dropped, not trusted")
	assert.FileExists(t, path+".refused", "kept aside to look at")

	other, err := Open(path+".refused", []byte("another hub's key"))
	assert.ErrorIs(t, err, ErrUnsealed, "another key's seal does not hold")
	assert.Empty(t, other.List())
}
