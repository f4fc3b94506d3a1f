package hub

import (
	"bytes"
	"os"

	"golang.org/x/sys/unix"
)

// mayBeAskbridge says whether process pid may be an askbridge, the root of
// an agent's tree: the kernel names it askbridge, or as the hub is named
// (kern.proc's p_comm, which a process of the user reads and only the
// process itself changes). A process that cannot be read counts as one.
func mayBeAskbridge(pid int) bool {
	name, err := procName(pid)
	if err != nil {
		return true
	}
	me, _ := procName(os.Getpid())
	return name == askbridgeName || name == me
}

// askbridgeName is askbridge's process name: its executable's.
const askbridgeName = "askbridge"

func procName(pid int) (string, error) {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil {
		return "", err
	}
	if kp.Proc.P_pid != int32(pid) {
		return "", unix.ESRCH
	}
	c := kp.Proc.P_comm[:]
	if i := bytes.IndexByte(c, 0); i >= 0 {
		c = c[:i]
	}
	return string(c), nil
}
