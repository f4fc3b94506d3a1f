package main

import "syscall"

// hideFromAgent makes askbridge's process undumpable: the agent runs as the
// same user, and could otherwise read askbridge's environment (the desk's
// and the notifier's tokens) from /proc/<pid>/environ, or its memory. The
// agent itself is dumpable again once it execs.
func hideFromAgent() {
	const prSetDumpable = 4 // PR_SET_DUMPABLE, <linux/prctl.h>
	syscall.RawSyscall(syscall.SYS_PRCTL, prSetDumpable, 0, 0)
}
