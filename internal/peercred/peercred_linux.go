package peercred

import (
	"net"

	"golang.org/x/sys/unix"
)

// Supported: Linux has SO_PEERCRED.
const Supported = true

// Get is c's peer's credentials (SO_PEERCRED).
func Get(c *net.UnixConn) (Cred, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return Cred{}, err
	}
	var cred *unix.Ucred
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		cred, credErr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return Cred{}, err
	}
	if credErr != nil {
		return Cred{}, credErr
	}
	return Cred{UID: int(cred.Uid), PID: int(cred.Pid)}, nil
}
