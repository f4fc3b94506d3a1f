//go:build linux

package hub

import (
	"net"

	"golang.org/x/sys/unix"
)

// peerPID is the process on the other end of c, as the kernel says
// (SO_PEERCRED): unlike the pid an askbridge reports, no process can
// claim another's. 0 when unknown.
func peerPID(c *net.UnixConn) int {
	raw, err := c.SyscallConn()
	if err != nil {
		return 0
	}
	pid := 0
	raw.Control(func(fd uintptr) {
		if cred, err := unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED); err == nil {
			pid = int(cred.Pid)
		}
	})
	return pid
}
