//go:build !linux

package contain

import (
	"errors"
	"os/exec"
	"runtime"
)

// Start refuses: only Linux has the namespaces (see docs/security.md for
// macOS and Windows).
func Start(*exec.Cmd, Options) (*exec.Cmd, error) {
	return nil, refused(errors.New("no user and PID namespaces on " + runtime.GOOS))
}

// Inside is always false where askbridge contains nothing.
func Inside() (bool, string) { return false, "" }
