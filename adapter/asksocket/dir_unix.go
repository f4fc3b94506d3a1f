//go:build unix

package asksocket

import (
	"fmt"
	"os"
)

// restrictToUser makes dir the user's alone, whatever the umask did: a
// shared /tmp is world-writable, the directory in it must not be.
func restrictToUser(dir string) error {
	if err := os.Chmod(dir, 0o700); err != nil {
		return fmt.Errorf("restricting %s to its owner: %w", dir, err)
	}
	return nil
}

// restrictSocket makes the socket itself owner-only too. Linux checks it
// on connect; some systems ignore a socket's mode, the directory's holds
// everywhere.
func restrictSocket(path string) { os.Chmod(path, 0o600) }
