package peercred

import (
	"net"

	"golang.org/x/sys/unix"
)

// Supported: macOS has LOCAL_PEERCRED and LOCAL_PEERPID.
const Supported = true

// Get is c's peer's credentials (LOCAL_PEERCRED: its uid, as
// getpeereid; LOCAL_PEERPID: its pid).
func Get(c *net.UnixConn) (Cred, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return Cred{}, err
	}
	var cred Cred
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		var x *unix.Xucred
		if x, credErr = unix.GetsockoptXucred(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERCRED); credErr != nil {
			return
		}
		cred.UID = int(x.Uid)
		cred.PID, credErr = unix.GetsockoptInt(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERPID)
	}); err != nil {
		return Cred{}, err
	}
	return cred, credErr
}
