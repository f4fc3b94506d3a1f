package proctree

import (
	"bytes"

	"golang.org/x/sys/unix"
)

// szomb is p_stat's value for a zombie (sys/proc.h SZOMB).
const szomb = 5

// Read is pid's entry in sysctl kern.proc.pid. SID stays 0: kern.proc
// gives the session only as a kernel address.
func Read(pid int) (Proc, error) {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil {
		return Proc{}, err
	}
	if kp.Proc.P_pid != int32(pid) {
		return Proc{}, unix.ESRCH // no such process: the sysctl returns zeros
	}
	name := kp.Proc.P_comm[:]
	if i := bytes.IndexByte(name, 0); i >= 0 {
		name = name[:i]
	}
	return Proc{PID: pid, PPID: int(kp.Eproc.Ppid), PGID: int(kp.Eproc.Pgid), Name: string(name), Zombie: kp.Proc.P_stat == szomb}, nil
}

// List is ErrUnsupported: nothing on macOS lists the table yet.
func List() ([]Proc, error) { return nil, ErrUnsupported }
