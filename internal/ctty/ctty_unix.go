//go:build unix

package ctty

import "syscall"

// Has reports whether the process has a controlling terminal: whether
// /dev/tty, which names it, opens. Only ENXIO (no controlling terminal)
// says no; any other failure says yes, so that the agent is put in a
// session of its own whenever it is unsure.
func Has() bool {
	fd, err := syscall.Open("/dev/tty", syscall.O_RDWR|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return err != syscall.ENXIO
	}
	syscall.Close(fd)
	return true
}

// Leave sets attr to start a process in a process group of its own, and
// in a session of its own (leaving the terminal) where there is a
// controlling terminal to leave.
func Leave(attr *syscall.SysProcAttr) {
	attr.Setsid = Has()
	attr.Setpgid = !attr.Setsid
}
