//go:build unix && !linux

package relay

import "syscall"

// macOS and the BSDs have no Pdeathsig: a watchdog ends the agent's group
// when askbridge dies.
func orphanSignal(*syscall.SysProcAttr) {}

func guardOrphan(pgid int) *watchdog { return startWatchdog(pgid) }

// groupAlive reports whether any process of the group is still there.
// Without /proc a zombie counts too; an orphaned one is reaped by launchd
// or init within moments, so at worst reap waits out its grace.
func groupAlive(pgid int) bool { return syscall.Kill(-pgid, 0) == nil }
