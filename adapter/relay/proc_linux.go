package relay

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
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
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil || len(stats) == 0 {
		return true // no /proc: trust kill
	}
	want := strconv.Itoa(pgid)
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		end := strings.LastIndexByte(string(b), ')')
		if end < 0 || end+2 > len(b) {
			continue
		}
		// After the command name: state ppid pgrp ...
		f := strings.Fields(string(b[end+2:]))
		if len(f) > 2 && f[2] == want && f[0] != "Z" && f[0] != "X" {
			return true
		}
	}
	return false
}
