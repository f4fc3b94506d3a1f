//go:build linux

package pty

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

// Start starts cmd in a session of its own whose controlling terminal is
// a new pseudo-terminal, and returns the terminal's other end, where what
// cmd writes to /dev/tty (and to its stdio left nil) is read. The caller
// closes it after cmd ends.
func Start(cmd *exec.Cmd) (*os.File, error) {
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err == nil {
		err = unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0)
	}
	if err != nil {
		m.Close()
		return nil, fmt.Errorf("pseudo-terminal: %w", err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		m.Close()
		return nil, err
	}
	defer s.Close()
	if cmd.Stdin == nil {
		cmd.Stdin = s
	}
	if cmd.Stdout == nil {
		cmd.Stdout = s
	}
	if cmd.Stderr == nil {
		cmd.Stderr = s
	}
	cmd.ExtraFiles = append(cmd.ExtraFiles, s)
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	// A session of its own is a process group of its own too: Setpgid
	// after setsid would fail.
	cmd.SysProcAttr.Setsid, cmd.SysProcAttr.Setctty, cmd.SysProcAttr.Setpgid = true, true, false
	cmd.SysProcAttr.Ctty = 2 + len(cmd.ExtraFiles) // its descriptor in the child
	if err := cmd.Start(); err != nil {
		m.Close()
		return nil, err
	}
	return m, nil
}
