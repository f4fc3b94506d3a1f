// Package pty starts a process with a pseudo-terminal as its controlling
// terminal, its stdio left as the caller set it: how tests read what
// askbridge shows only on its terminal (the desk's pairing codes), as a
// user would see it. Linux only; elsewhere Start says it cannot.
package pty
