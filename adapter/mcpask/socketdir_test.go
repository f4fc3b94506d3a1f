//go:build unix

package mcpask

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// askbridge mcp does not dial an ask socket in a folder another user could
// control: open to others, or a symbolic link.
func TestAskSocketInAnUnsafeFolderIsNotDialled(t *testing.T) {
	private := t.TempDir()
	require.NoError(t, os.Chmod(private, 0o700))
	open := filepath.Join(private, "open")
	require.NoError(t, os.Mkdir(open, 0o755))
	require.NoError(t, os.Chmod(open, 0o755))
	link := filepath.Join(private, "link")
	require.NoError(t, os.Symlink(private, link))
	var dialled atomic.Int32
	for _, dir := range []string{open, private} {
		ln, err := net.Listen("unix", filepath.Join(dir, "ask.sock"))
		require.NoError(t, err)
		defer ln.Close()
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				dialled.Add(1)
				c.Close()
			}
		}()
	}
	for dir, what := range map[string]string{open: "has mode 0755", link: "is a symbolic link"} {
		_, err := askSocket(context.Background(), filepath.Join(dir, "ask.sock"), "", json.RawMessage(`[]`))
		require.Error(t, err)
		assert.Contains(t, err.Error(), "the socket folder "+dir+" "+what)
	}
	assert.Zero(t, dialled.Load())
}
