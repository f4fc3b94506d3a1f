package relay

import (
	"syscall"

	"github.com/askbridge/askbridge/internal/proctree"
)

// orphanSignal has the kernel send the agent SIGTERM when askbridge dies,
// even by SIGKILL. Only the agent gets it, not its group: its helpers see
// their stdin or the agent's pipes close.
func orphanSignal(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGTERM }

// guardOrphan: Pdeathsig needs no watchdog.
func guardOrphan(int) *watchdog { return nil }

// groupAlive reports whether any process of the group is still running.
// Zombies do not count: they are dead, only not yet reaped by their new
// parent, and kill(-pgid, 0) would still find them.
func groupAlive(pgid int) bool {
	if syscall.Kill(-pgid, 0) != nil {
		return false
	}
	procs, err := proctree.List()
	if err != nil {
		return true // no /proc: trust kill
	}
	for _, p := range procs {
		if p.PGID == pgid && !p.Zombie {
			return true
		}
	}
	return false
}
