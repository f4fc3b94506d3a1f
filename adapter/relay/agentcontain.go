package relay

import (
	"errors"
	"log/slog"
	"os/exec"
	"syscall"
	"time"
)

// Container starts the agent's command (cmd as exec.Command made it) in a
// container of its own and returns the process that stands for the agent
// there: it exits with the agent's status, once the agent has exited and
// what it left behind has ended; SIGTERM to it reaches the whole container,
// SIGKILL ends it all. An error wrapping ErrNotContained means nothing was
// started and the agent may run uncontained; any other error is the
// agent's start error.
type Container func(cmd *exec.Cmd) (*exec.Cmd, error)

// ErrNotContained is wrapped by a Container's error when it started
// nothing, and by Agent.Uncontained's reason.
var ErrNotContained = errors.New("not contained")

// errNoContainer is the reason when there is no Container at all.
var errNoContainer = errors.New("not contained: containment is off")

// Uncontained says why the agent is not contained: nil when it is.
// Uncontained, anything it starts can act as the user (see
// docs/security.md).
func (a *Agent) Uncontained() error { return a.uncontained }

// startIn starts cmd in c, else (no c, or c refused) as a process tree of
// its own, and returns the tree, the process to wait for, and why it is
// not contained (nil if it is).
func startIn(c Container, cmd *exec.Cmd) (procTree, *exec.Cmd, error, error) {
	why := errNoContainer
	if c != nil {
		init, err := c(cmd) // which does not start cmd: a fallback may

		switch {
		case err == nil:
			watchGroup(init.Process.Pid) // its leader: os/exec waits for it
			return &container{init: init}, init, nil, nil
		case !errors.Is(err, ErrNotContained):
			return nil, nil, nil, err
		}
		why = err
	}
	tree, err := startTree(cmd)
	return tree, cmd, why, err
}

// container is a contained agent's tree: its init, whose end the kernel
// makes the end of every process in it.
type container struct{ init *exec.Cmd }

func (c *container) terminate() { c.init.Process.Signal(syscall.SIGTERM) }
func (c *container) kill()      { c.init.Process.Kill() }

// reap: once the init has exited, nothing of the container is left.
func (c *container) reap(time.Duration) { forgetGroup(c.init.Process.Pid) }

// UncontainedWarning is what askbridge says, once at start and on every
// approval card, of an agent that runs uncontained.
const UncontainedWarning = "not contained: anything this agent starts can act as you"

// logContainment says once whether the agent is contained.
func logContainment(logger *slog.Logger, a *Agent) {
	if why := a.Uncontained(); why != nil {
		logger.Warn(UncontainedWarning, "reason", why.Error())
		return
	}
	logger.Info("agent contained: its processes cannot see or signal askbridge, the hub or the user's other processes, and end with askbridge")
}
