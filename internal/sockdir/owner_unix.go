//go:build unix

package sockdir

import (
	"fmt"
	"os"
	"syscall"
)

// checkOwner wants dir owned by this uid, with no access for group or
// others.
func checkOwner(dir string, fi os.FileInfo) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return &unsafeError{dir, "has no owner this system reports"}
	}
	if uid := os.Getuid(); int(st.Uid) != uid {
		return &unsafeError{dir, fmt.Sprintf("is owned by uid %d, not this user's %d", st.Uid, uid)}
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return &unsafeError{dir, fmt.Sprintf("has mode %04o", perm)}
	}
	return nil
}
