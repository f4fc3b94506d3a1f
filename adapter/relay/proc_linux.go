package relay

import "syscall"

// orphanSignal has the kernel send the agent SIGTERM when askbridge dies,
// even by SIGKILL. Only the agent gets it, not its group: its helpers see
// their stdin or the agent's pipes close.
func orphanSignal(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGTERM }

// guardOrphan: Pdeathsig needs no watchdog.
func guardOrphan(int) *watchdog { return nil }
