//go:build !linux

package main

// hideFromAgent does nothing here. On macOS and Windows a process of the
// same user can still read askbridge's environment (ps -E, the process's
// PEB): the tokens stay out of the agent's own environment, and the README
// says to keep them out of reach there.
func hideFromAgent() {}
