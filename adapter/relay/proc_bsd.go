//go:build unix && !linux

package relay

import "syscall"

// macOS and the BSDs have no Pdeathsig: a watchdog ends the agent's group
// when askbridge dies.
func orphanSignal(*syscall.SysProcAttr) {}

func guardOrphan(pgid int) *watchdog { return startWatchdog(pgid) }
