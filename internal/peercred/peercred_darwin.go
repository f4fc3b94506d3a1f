package peercred

import (
	"net"

	"golang.org/x/sys/unix"
)

// Supported: macOS has LOCAL_PEERCRED, LOCAL_PEERPID and kern.proc.
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

// Parent is pid's parent (sysctl kern.proc.pid).
func Parent(pid int) (int, error) {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil {
		return 0, err
	}
	if kp.Proc.P_pid != int32(pid) {
		return 0, unix.ESRCH // no such process: the sysctl returns zeros
	}
	return int(kp.Eproc.Ppid), nil
}
