package contain

import (
	"bytes"
	"os"
	"strings"

	"github.com/askbridge/askbridge/internal/contain/nsinit"
)

// Inside says whether this process runs in an askbridge container, and
// how it knows. The mark is the container's own mount table: a tmpfs whose
// source is nsinit.HiddenSource over one of askbridge's folders. The
// agent cannot take it away: unmounting needs CAP_SYS_ADMIN in the
// container's user namespace, which its init drops before the agent
// starts; in a user namespace of its own the agent gets copies of those
// mounts that it may not unmount either (the kernel locks them). The
// namespaces' init (pid 1, whose command line says nsinit.Arg) is a second
// sign. An environment variable would be none: the agent unsets it.
//
// What it cannot see: an agent that leaves its mount tree altogether
// (pivot_root into a folder of its own in a nested namespace) is no longer
// marked, but neither does it see the user's home there; and a program the
// agent has started outside (a service, a terminal multiplexer's window)
// is outside.
func Inside() (bool, string) {
	if b, err := os.ReadFile("/proc/self/mountinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			_, after, ok := strings.Cut(line, " - ")
			if f := strings.Fields(after); ok && len(f) >= 2 && f[0] == "tmpfs" && f[1] == nsinit.HiddenSource {
				return true, strings.Fields(line)[4] + " is hidden by askbridge's container"
			}
		}
	}
	if b, err := os.ReadFile("/proc/1/cmdline"); err == nil {
		if args := bytes.Split(b, []byte{0}); len(args) > 1 && string(args[1]) == InitArg {
			return true, "process 1 is askbridge's container init"
		}
	}
	return false, ""
}
