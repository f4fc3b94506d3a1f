package main

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// privateDir is a temporary folder fit for a socket: askbridge refuses a
// socket folder open to other users (sockdir), and t.TempDir's is 0755.
func privateDir(t *testing.T) string {
	dir := t.TempDir()
	require.NoError(t, os.Chmod(dir, 0o700))
	return dir
}
