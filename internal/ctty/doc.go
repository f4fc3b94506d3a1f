// Package ctty says whether the process has a controlling terminal, for
// the code that starts the agent: it is put in a session of its own (so it
// cannot type into that terminal with TIOCSTI, or read it) only where there
// is one to leave. A new session is also a new scheduling group where the
// kernel groups by session (Linux's autogroup): an agent on its own there
// gets as much of the processors as the editor and askbridge together, and
// a streaming turn ran at 0.6 of its speed on two cores (issue 48). The
// package imports only syscall: the container's init (nsinit) uses it
// before most of askbridge is initialized.
package ctty
