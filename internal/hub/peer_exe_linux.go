package hub

import (
	"os"
	"strconv"
)

// sameExecutable says whether process pid runs the hub's own executable
// (the same file, even deleted or replaced since): an askbridge, whether
// or not it reports to the hub.
func sameExecutable(pid int) bool {
	self, err := os.Stat("/proc/self/exe")
	if err != nil {
		return false
	}
	other, err := os.Stat("/proc/" + strconv.Itoa(pid) + "/exe")
	return err == nil && os.SameFile(self, other)
}
