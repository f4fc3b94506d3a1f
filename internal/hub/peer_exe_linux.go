package hub

import (
	"os"
	"strconv"
	"strings"
)

// mayBeAskbridge says whether process pid may be an askbridge, the root of
// an agent's tree: it runs the hub's own executable (/proc/PID/exe, the
// same file even deleted or replaced since), or /proc/PID/stat names it
// askbridge (or as the hub is named). An askbridge is undumpable (its
// memory and environment are hidden from its agent), which also hides its
// executable from a hub that is not root; its name, which only the process
// itself can change, still shows. A process whose name cannot be read is
// not known to be outside: it counts as one.
func mayBeAskbridge(pid int) bool {
	dir := "/proc/" + strconv.Itoa(pid)
	self, err := os.Stat("/proc/self/exe")
	other, oerr := os.Stat(dir + "/exe")
	if err == nil && oerr == nil && os.SameFile(self, other) {
		return true
	}
	name, err := procName(dir)
	if err != nil {
		return true
	}
	me, _ := procName("/proc/self")
	return name == askbridgeName || name == me
}

// askbridgeName is askbridge's process name: its executable's.
const askbridgeName = "askbridge"

// procName is the process's name (comm) in its stat: "pid (name) ...".
func procName(dir string) (string, error) {
	b, err := os.ReadFile(dir + "/stat")
	if err != nil {
		return "", err
	}
	s := string(b)
	open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || end < open {
		return "", os.ErrInvalid
	}
	return s[open+1 : end], nil
}
