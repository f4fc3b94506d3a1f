//go:build !windows

package desk

import (
	"errors"
	"syscall"
)

// addrInUse says whether a listen failed because the address is taken.
func addrInUse(err error) bool { return errors.Is(err, syscall.EADDRINUSE) }
