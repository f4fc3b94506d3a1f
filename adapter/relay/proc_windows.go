package relay

import (
	"os"
	"os/exec"
	"syscall"
	"time"

	"golang.org/x/sys/windows"

	"github.com/askbridge/askbridge/internal/proctree"
)

// job is the agent's Job Object (proctree.Job). The agent starts
// suspended, joins the job before it runs a single instruction, and every
// process it starts joins it too; when askbridge exits, however it ends,
// Windows closes askbridge's handle, the only one, and ends the tree.
type job struct {
	j    *proctree.Job
	pid  int
	proc *os.Process
}

func startTree(cmd *exec.Cmd) (procTree, error) {
	// A console process group of its own, as Setpgid on Unix: a Ctrl-C in
	// askbridge's console is askbridge's to handle.
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_PROCESS_GROUP}
	j, err := proctree.StartJob(cmd)
	if err != nil {
		return nil, err
	}
	return &job{j: j, pid: cmd.Process.Pid, proc: cmd.Process}, nil
}

// terminate sends CTRL_BREAK to the agent's console process group, which
// node and most runtimes take as a request to exit. It fails, harmlessly,
// when askbridge has no console (an editor started it without one); stdin
// closing was the gentle request then, and kill follows.
func (j *job) terminate() {
	windows.GenerateConsoleCtrlEvent(windows.CTRL_BREAK_EVENT, uint32(j.pid))
}

func (j *job) kill() {
	if j.j.Terminate() != nil {
		j.proc.Kill()
	}
}

// reap ends what the agent left in the job, then closes the job (which,
// being kill-on-close, ends anything that joined meanwhile). Windows has no
// gentler way to ask a process without a console or a window to exit, so
// the grace is only for the processes to be gone.
func (j *job) reap(grace time.Duration) {
	defer j.j.Close()
	if j.j.Active() == 0 {
		return
	}
	j.j.Terminate()
	deadline := time.Now().Add(grace)
	for j.j.Active() > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
}
