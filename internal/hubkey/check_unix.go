//go:build unix

package hubkey

import (
	"fmt"
	"os"
	"syscall"
)

// checkDir wants the key's folder a directory of this user's alone.
func checkDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory (a symbolic link?)", dir)
	}
	return owned(dir, fi)
}

// checkFile wants the key's file a regular file of this user's alone.
func checkFile(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("the hub's key %s is not a regular file (a symbolic link?)", path)
	}
	return owned(path, fi)
}

func owned(path string, fi os.FileInfo) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fmt.Errorf("%s has no owner this system reports", path)
	}
	if uid := os.Getuid(); int(st.Uid) != uid {
		return fmt.Errorf("%s is owned by uid %d, not this user's %d", path, st.Uid, uid)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("%s has mode %04o: it must be this user's alone (chmod go-rwx)", path, perm)
	}
	return nil
}
