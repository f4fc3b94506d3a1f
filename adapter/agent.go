package adapter

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// Agent is the real agent running as askbridge's child, in a process group
// of its own so that its helpers (node spawning a native binary, say) are
// stopped with it.
type Agent struct {
	cmd    *exec.Cmd
	Stdin  io.WriteCloser
	Stdout io.ReadCloser
	done   chan struct{}
	err    error // the exit status, once done is closed
}

// StartAgent starts argv with env added to askbridge's environment. The
// agent's stderr goes to stderr.
func StartAgent(argv, env []string, stderr io.Writer) (*Agent, error) {
	if len(argv) == 0 {
		return nil, errors.New("no agent command")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(cmd.Environ(), env...)
	cmd.Stderr = stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	// Plain pipes rather than StdinPipe/StdoutPipe: Wait would close those
	// on exit and could cut off the agent's last lines before they are read.
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	cmd.Stdin, cmd.Stdout = inR, outW
	err = cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("cannot start agent %q: %w", argv[0], err)
	}
	stdin, stdout := inW, outR
	a := &Agent{cmd: cmd, Stdin: stdin, Stdout: stdout, done: make(chan struct{})}
	go func() {
		a.err = cmd.Wait()
		close(a.done)
	}()
	return a, nil
}

// Done is closed when the agent process has exited.
func (a *Agent) Done() <-chan struct{} { return a.done }

// Err is the agent's exit status; valid once Done is closed.
func (a *Agent) Err() error { return a.err }

// Pid is the agent's process id (and its process group id).
func (a *Agent) Pid() int { return a.cmd.Process.Pid }

// Stop ends the agent the way the ACP stdio transport expects: close its
// stdin and give it grace to exit, then SIGTERM, then SIGKILL, each to the
// whole process group. Helpers the agent left behind are stopped the same
// way once it has exited.
func (a *Agent) Stop(grace time.Duration) {
	a.Stdin.Close()
	if !a.waitFor(grace) {
		a.signal(syscall.SIGTERM)
		if !a.waitFor(grace) {
			a.signal(syscall.SIGKILL)
			<-a.done
		}
	}
	a.reapGroup(grace)
}

// reapGroup stops what is left of the agent's process group.
func (a *Agent) reapGroup(grace time.Duration) {
	pgid := a.cmd.Process.Pid
	if !groupAlive(pgid) {
		return
	}
	syscall.Kill(-pgid, syscall.SIGTERM)
	deadline := time.Now().Add(grace)
	for time.Now().Before(deadline) {
		if !groupAlive(pgid) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	syscall.Kill(-pgid, syscall.SIGKILL)
}

func (a *Agent) signal(sig syscall.Signal) {
	if err := syscall.Kill(-a.cmd.Process.Pid, sig); err != nil {
		a.cmd.Process.Signal(sig)
	}
}

func (a *Agent) waitFor(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-a.done:
		return true
	case <-t.C:
		return false
	}
}
