package main

import (
	"fmt"
	"io"

	"github.com/askbridge/askbridge/internal/hubkey"
)

// hubKey is `askbridge hub key`: the hub's public key, made now if no hub
// has started yet, for a machine that reaches this hub through an
// SSH-forwarded socket to trust ($ASKBRIDGE_HUB_KEY there).
func hubKey(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintln(stderr, "askbridge hub key: takes no argument")
		return 2
	}
	path, err := hubkey.Path()
	if err == nil {
		var k *hubkey.Key
		if k, err = hubkey.Open(path); err == nil {
			fmt.Fprintln(stdout, hubkey.Format(k.Public()))
			return 0
		}
	}
	fmt.Fprintln(stderr, "askbridge hub key:", err)
	return 1
}
