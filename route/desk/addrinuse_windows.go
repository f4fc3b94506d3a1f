package desk

import (
	"errors"
	"syscall"
)

// wsaeAddrInUse is Winsock's WSAEADDRINUSE: Windows reports a taken address
// with it, not with syscall.EADDRINUSE (an errno Go invents there).
const wsaeAddrInUse = syscall.Errno(10048)

// addrInUse says whether a listen failed because the address is taken.
func addrInUse(err error) bool {
	return errors.Is(err, wsaeAddrInUse) || errors.Is(err, syscall.EADDRINUSE)
}
