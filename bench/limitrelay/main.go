// Command limitrelay is the fastest relay a process can be, the limit
// relaybench measures askbridge against: it starts the agent given as its
// arguments and io.Copy's bytes both ways, parsing nothing. It exits when
// the agent does.
//
// Usage: limitrelay AGENT [ARG...]
package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: limitrelay AGENT [ARG...]")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		fail(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		fail(err)
	}
	if err := cmd.Start(); err != nil {
		fail(err)
	}
	go func() {
		io.Copy(in, os.Stdin)
		in.Close() // the editor hung up: so does the agent's stdin
	}()
	io.Copy(os.Stdout, out)
	if err := cmd.Wait(); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "limitrelay:", err)
	os.Exit(1)
}
