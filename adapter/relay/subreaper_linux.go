package relay

import (
	"os"
	"os/signal"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/askbridge/askbridge/internal/proctree"
)

// askbridge is the child subreaper of its agent (PR_SET_CHILD_SUBREAPER):
// a process the agent starts and orphans (a double fork, a daemon) is
// re-parented to askbridge rather than to init or the session's manager,
// so it stays below askbridge, where the hub looks for the agents' process
// trees before it takes an answer from the terminal inbox. askbridge then
// reaps those orphans when they end (reapOrphans): nobody else will.

var (
	subreaper   sync.Once
	agentGroups sync.Map // pgid -> true: the agents' process groups
	ourSession  int
)

// adoptOrphans makes askbridge the subreaper of what it starts next, once.
func adoptOrphans() {
	subreaper.Do(func() {
		if unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != nil {
			return // a kernel before 3.4: orphans go to init, as before
		}
		ourSession, _ = unix.Getsid(0)
		ch := make(chan os.Signal, 1)
		signal.Notify(ch, syscall.SIGCHLD)
		go func() {
			for range ch {
				reapOrphans()
			}
		}()
	})
}

// watchGroup and forgetGroup say which process groups are agents'.
func watchGroup(pgid int)  { agentGroups.Store(pgid, true) }
func forgetGroup(pgid int) { agentGroups.Delete(pgid) }

// reapOrphans waits for askbridge's ended children that it did not start
// itself: those in an agent's group but not its leader (the agent, which
// os/exec waits for), and those in another session (a daemon's setsid; the
// agent's own session is another too, but its leader is left to os/exec).
// Children askbridge started (a notifier's command, a hook in a group of
// its own) are in askbridge's session and no agent's group: left to the
// os/exec that waits for them.
func reapOrphans() {
	children, _ := proctree.Children(os.Getpid())
	for _, c := range children {
		if !c.Zombie {
			continue
		}
		if _, leader := agentGroups.Load(c.PID); leader {
			continue // the agent (or its container's init): os/exec waits for it
		}
		if _, agents := agentGroups.Load(c.PGID); agents && c.PID != c.PGID || c.SID != ourSession {
			var ws unix.WaitStatus
			unix.Wait4(c.PID, &ws, unix.WNOHANG, nil)
		}
	}
}
