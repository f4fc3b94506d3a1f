package peercred

import (
	"errors"
	"fmt"
)

// Cred is a socket peer's credentials, as the kernel took them when it
// connected (or, for a client looking at a listener, when it listened).
type Cred struct {
	UID int
	PID int // 0 where the OS does not tell it
}

// ErrUnsupported is Get or Parent on an OS that cannot tell.
var ErrUnsupported = errors.New("peer credentials are not available on this system")

// Descends says whether pid is a root (isRoot) or below one, walking its
// parents up to init. A process whose parent cannot be read (it
// ended) is not known to be outside, so it counts as inside: err says why.
func Descends(pid int, isRoot func(pid int) bool) (bool, error) {
	for range 4096 { // a cycle cannot happen, a bound costs nothing
		if isRoot(pid) {
			return true, nil
		}
		if pid <= 1 {
			return false, nil
		}
		parent, err := Parent(pid)
		if err != nil {
			return true, fmt.Errorf("process %d: %w", pid, err)
		}
		pid = parent
	}
	return true, errors.New("the chain of parents does not end")
}
