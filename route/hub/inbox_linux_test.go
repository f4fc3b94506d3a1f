package hub

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Another uid is refused at the door, before any request, even when the
// socket's and its folders' modes let it connect.
func TestInboxRefusesAnotherUid(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root, to connect as another uid")
	}
	_, _, path, through := startInbox(t, InboxOptions{})
	require.NoError(t, os.Chmod(InboxPath(path), 0o666))
	for dir := filepath.Dir(path); dir != "/tmp"; dir = filepath.Dir(dir) {
		require.NoError(t, os.Chmod(dir, 0o755))
	}
	out := nobodyGet(t, InboxPath(path))
	assert.Contains(t, out, "got: \n", "the connection was closed unanswered")
	assert.Zero(t, through.Load())
}
