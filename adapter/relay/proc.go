package relay

import "time"

// procTree is the agent and everything it starts, held together the way
// the OS allows, so that stopping the agent stops its helpers too (node
// spawning a native binary, say), and askbridge dying takes them along:
//
//   - A Container (agentcontain.go: Linux's namespaces, package contain):
//     the container's init, whose end the kernel makes the end of every
//     process in it. Otherwise:
//   - Unix (proc_unix.go): a session and process group of its own. Linux
//     adds Pdeathsig (proc_linux.go); macOS and the BSDs, which have no
//     Pdeathsig, a watchdog (proc_bsd.go, watchdog_unix.go).
//   - Windows (proc_windows.go): a Job Object that kills the tree when
//     askbridge's handle to it closes, however askbridge ends.
//
// startTree (one per OS) sets cmd up, starts it and returns its tree.
type procTree interface {
	// terminate asks the tree to end: SIGTERM to the group on Unix,
	// CTRL_BREAK to its console process group on Windows (which reaches it
	// only when askbridge has a console).
	terminate()
	// kill ends the whole tree now.
	kill()
	// reap stops what is left of the tree once the agent has exited (the
	// helpers it left behind), giving them grace to exit, and releases what
	// the tree holds. Called once, last.
	reap(grace time.Duration)
}
