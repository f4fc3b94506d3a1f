//go:build !linux

package pty

import (
	"os"
	"os/exec"
)

// Start says that this system's pseudo-terminals are not done here.
func Start(*exec.Cmd) (*os.File, error) {
	return nil, ErrUnsupported
}
