package hubkey

import (
	"fmt"
	"os"

	"github.com/askbridge/askbridge/internal/sockdir"
)

// checkDir wants the key's folder this user's: Windows has no mode bits,
// the folder's owner is what can be held to (as sockdir's).
func checkDir(dir string) error { return sockdir.Check(dir) }

// checkFile wants a regular file.
func checkFile(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("the hub's key %s is not a regular file", path)
	}
	return nil
}
