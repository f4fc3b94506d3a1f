//go:build linux || darwin

package hub

import (
	"os"

	"github.com/askbridge/askbridge/internal/proctree"
)

// mayBeAskbridge says whether process pid may be an askbridge, the root of
// an agent's tree: it runs the hub's own executable (sameExecutable, where
// the system tells), or the kernel names it askbridge, or as the hub is
// named (comm, which only the process itself changes). An askbridge is
// undumpable (its memory and environment are hidden from its agent),
// which also hides its executable from a hub that is not root; its name
// still shows. A process whose name cannot be read is not known to be
// outside: it counts as one.
func mayBeAskbridge(pid int) bool {
	if sameExecutable(pid) {
		return true
	}
	p, err := proctree.Read(pid)
	if err != nil {
		return true
	}
	me, _ := proctree.Read(os.Getpid())
	return p.Name == askbridgeName || p.Name == me.Name
}

// askbridgeName is askbridge's process name: its executable's.
const askbridgeName = "askbridge"
