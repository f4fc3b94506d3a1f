//go:build unix

package relay

import (
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/askbridge/askbridge/internal/ctty"
	"github.com/askbridge/askbridge/internal/proctree"
)

// group is the agent's process group: the agent leads it, its helpers
// inherit it, and a terminal's Ctrl-C, sent to askbridge's group, does not
// reach it (askbridge stops the agent itself). Where askbridge has a
// controlling terminal the group leads a session of its own too (package
// ctty says why not always): the agent has none, so it cannot type
// into the user's shell (TIOCSTI) or read the terminal askbridge reads.
type group struct {
	pgid  int
	proc  *os.Process
	guard *watchdog // nil where the kernel guards instead (Linux)
}

func startTree(cmd *exec.Cmd) (procTree, error) {
	cmd.SysProcAttr = &syscall.SysProcAttr{}
	ctty.Leave(cmd.SysProcAttr)
	orphanSignal(cmd.SysProcAttr)
	adoptOrphans()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	watchGroup(cmd.Process.Pid)
	g := &group{pgid: cmd.Process.Pid, proc: cmd.Process}
	g.guard = guardOrphan(g.pgid)
	return g, nil
}

func (g *group) terminate() { g.signal(syscall.SIGTERM) }
func (g *group) kill()      { g.signal(syscall.SIGKILL) }

func (g *group) signal(sig syscall.Signal) {
	if err := syscall.Kill(-g.pgid, sig); err != nil {
		g.proc.Signal(sig)
	}
}

func (g *group) reap(grace time.Duration) {
	defer g.guard.stop()
	defer forgetGroup(g.pgid)
	if !groupAlive(g.pgid) {
		return
	}
	syscall.Kill(-g.pgid, syscall.SIGTERM)
	deadline := time.Now().Add(grace)
	for time.Now().Before(deadline) {
		if !groupAlive(g.pgid) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	syscall.Kill(-g.pgid, syscall.SIGKILL)
}

// groupAlive reports whether any process of the group is still running.
// Zombies do not count where the process table says (Linux): they are
// dead, only not yet reaped by their new parent, and kill(-pgid, 0) would
// still find them. Elsewhere a zombie counts; an orphaned one is reaped by
// launchd or init within moments, so at worst reap waits out its grace.
func groupAlive(pgid int) bool {
	if syscall.Kill(-pgid, 0) != nil {
		return false
	}
	procs, err := proctree.List()
	if err != nil {
		return true // no process table: trust kill
	}
	for _, p := range procs {
		if p.PGID == pgid && !p.Zombie {
			return true
		}
	}
	return false
}
