package peercred

import "errors"

// Cred is a socket peer's credentials, as the kernel took them when it
// connected (or, for a client looking at a listener, when it listened).
type Cred struct {
	UID int
	PID int // 0 where the OS does not tell it
}

// ErrUnsupported is Get on an OS that cannot tell.
var ErrUnsupported = errors.New("peer credentials are not available on this system")
