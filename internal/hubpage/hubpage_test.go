package hubpage

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The page's address is kept without its query or user (no credential),
// read back as kept, and gone once the hub stops; what is not an http(s)
// address without a query is not read.
func TestKeepAndRead(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "hub.sock")
	assert.Empty(t, Read(sock), "no hub: nothing")
	stop := Keep(sock, "https://me:secret@hub.example.net:7683/?token=abc#pair=X")
	assert.Equal(t, "https://hub.example.net:7683/", Read(sock))
	b, err := os.ReadFile(sock + ".page")
	require.NoError(t, err)
	assert.NotContains(t, string(b), "secret")
	assert.NotContains(t, string(b), "abc")
	stop()
	assert.Empty(t, Read(sock))

	require.NoError(t, os.WriteFile(sock+".page", []byte("file:///etc/passwd\n"), 0o600))
	assert.Empty(t, Read(sock))
	require.NoError(t, os.WriteFile(sock+".page", []byte("http://localhost:7683/?token=x\n"), 0o600))
	assert.Empty(t, Read(sock))
}
