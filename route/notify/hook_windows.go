//go:build windows

package notify

import (
	"os"
	"os/exec"
	"syscall"

	"golang.org/x/sys/windows"

	"github.com/askbridge/askbridge/internal/proctree"
)

// shellCommand runs script through cmd.exe as Node's child_process does:
// /d skips AutoRun, /s with the quotes hands cmd.exe the script verbatim
// (Go's own quoting of arguments is not cmd.exe's).
func shellCommand(script string) *exec.Cmd {
	shell := os.Getenv("ComSpec")
	if shell == "" {
		shell = "cmd.exe"
	}
	cmd := exec.Command(shell)
	cmd.SysProcAttr = &syscall.SysProcAttr{CmdLine: `"` + shell + `" /d /s /c "` + script + `"`}
	return cmd
}

// startTree starts cmd in a Job Object of its own (proctree.Job): what the
// hook starts, in the background too, is in the job, and the job ends with
// the hook, with a timeout, with Close, and with askbridge itself, however
// it ends (the handle closes with the process). The shell runs only once
// it is in the job, so that nothing it starts escapes it.
func startTree(cmd *exec.Cmd) (procTree, error) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.CreationFlags |= windows.CREATE_NEW_PROCESS_GROUP | windows.CREATE_NO_WINDOW
	j, err := proctree.StartJob(cmd)
	if err != nil {
		return nil, err
	}
	return jobTree{j}, nil
}

// jobTree is a hook's job object.
type jobTree struct{ *proctree.Job }

// end kills every process in the job and lets the job go.
func (t jobTree) end() {
	t.Terminate()
	t.Close()
}
