package main

import (
	"fmt"
	"io"

	"github.com/askbridge/askbridge/wire/hubctl"
)

// hubKey is `askbridge hub key` (hubctl.Key).
func hubKey(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintln(stderr, "askbridge hub key: takes no argument")
		return 2
	}
	return done("askbridge hub key", hubctl.Key(stdout), stderr)
}
