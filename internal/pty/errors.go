package pty

import "errors"

// ErrUnsupported is Start on a system whose pseudo-terminals this package
// does not open (all but Linux): a test that needs one skips there.
var ErrUnsupported = errors.New("pty: only on Linux")
