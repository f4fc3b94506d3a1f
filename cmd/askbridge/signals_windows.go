package main

import (
	"os"
	"syscall"
)

// stopSignals: os.Interrupt is Ctrl-C and Ctrl-Break in askbridge's
// console; Go reports the console window closing, logoff and shutdown as
// SIGTERM. After those three Windows ends the process within seconds
// whatever it does, and the agent's Job Object (kill-on-close) ends the
// agent's tree with it if askbridge's own stop has not finished.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}

// ignoreBrokenPipe: Windows has no SIGPIPE; a write to a closed pipe
// returns an error.
func ignoreBrokenPipe() {}
