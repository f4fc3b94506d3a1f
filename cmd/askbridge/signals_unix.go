//go:build unix

package main

import (
	"os"
	"os/signal"
	"syscall"
)

// stopSignals: kill's default, a terminal's Ctrl-C, and the terminal or
// SSH session going away.
var stopSignals = []os.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP}

// ignoreBrokenPipe: a client that goes away must not kill askbridge with
// SIGPIPE before it has stopped the agent; writes return EPIPE instead.
func ignoreBrokenPipe() { signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE) }
