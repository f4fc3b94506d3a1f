//go:build darwin

package hub

import (
	"net"

	"golang.org/x/sys/unix"
)

// peerPID is the process on the other end of c, as the kernel says
// (LOCAL_PEERPID): unlike the pid an askbridge reports, no process can
// claim another's. 0 when unknown.
func peerPID(c *net.UnixConn) int {
	raw, err := c.SyscallConn()
	if err != nil {
		return 0
	}
	pid := 0
	raw.Control(func(fd uintptr) {
		if p, err := unix.GetsockoptInt(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERPID); err == nil {
			pid = p
		}
	})
	return pid
}
