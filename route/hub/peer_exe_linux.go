package hub

import (
	"os"
	"strconv"
)

// sameExecutable says whether pid runs the hub's own executable
// (/proc/PID/exe: the same file even deleted or replaced since).
func sameExecutable(pid int) bool {
	self, err := os.Stat("/proc/self/exe")
	other, oerr := os.Stat("/proc/" + strconv.Itoa(pid) + "/exe")
	return err == nil && oerr == nil && os.SameFile(self, other)
}
