//go:build unix

package notify

import (
	"os/exec"
	"syscall"
)

// shellCommand runs script through sh -c.
func shellCommand(script string) *exec.Cmd {
	return exec.Command("/bin/sh", "-c", script)
}

// startTree starts cmd as the leader of a process group of its own: what
// the hook starts, in the background too, stays in the group unless it
// leaves it on purpose (setsid).
func startTree(cmd *exec.Cmd) (procTree, error) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return pgroup(cmd.Process.Pid), nil
}

// pgroup is a hook's process group, by its id (the shell's pid).
type pgroup int

// end kills the group. Once the shell is reaped its pid may in principle be
// handed out again, but not while the group still has a member, and an
// empty group only makes kill fail with ESRCH.
func (g pgroup) end() { syscall.Kill(-int(g), syscall.SIGKILL) }
