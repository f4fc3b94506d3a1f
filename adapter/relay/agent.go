package relay

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// Agent is the real agent running as askbridge's child, in a process tree
// of its own (a process group, a Job Object: see procTree) so that its
// helpers (node spawning a native binary, say) are stopped with it.
type Agent struct {
	cmd    *exec.Cmd
	tree   procTree
	Stdin  io.WriteCloser
	Stdout io.ReadCloser
	done   chan struct{}
	err    error // the exit status, once done is closed
	tail   *stderrTail
	reaped sync.Once
	// uncontained says why the agent is not contained (nil: it is).
	uncontained error
}

// StartError reports an agent that could not be started, in words a user
// reads: the command and why, without exec's and fork's prefixes.
type StartError struct {
	Command string
	Err     error
}

func (e *StartError) Error() string {
	reason := e.Err
	var ee *exec.Error
	var pe *fs.PathError
	switch {
	case errors.As(reason, &ee):
		reason = ee.Err
	case errors.As(reason, &pe):
		reason = pe.Err
	}
	return fmt.Sprintf("cannot start agent %q: %v", e.Command, reason)
}

func (e *StartError) Unwrap() error { return e.Err }

// StartAgent starts argv with env added to askbridge's environment, less
// askbridge's own variables (AgentEnv). The agent's stderr goes to stderr
// (nil: nowhere), and its last lines are kept for StderrTail.
func StartAgent(argv, env []string, stderr io.Writer) (*Agent, error) {
	return StartContained(argv, env, stderr, nil)
}

// StartContained is StartAgent with the agent in container c (see
// Container; nil: not contained).
func StartContained(argv, env []string, stderr io.Writer, c Container) (*Agent, error) {
	if len(argv) == 0 {
		return nil, errors.New("no agent command")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = AgentEnv(cmd.Environ(), env)
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
	// stderr through a pipe of askbridge's own too, so that Wait does not
	// wait on a helper still holding it and a crash can quote it.
	errR, errW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	tree, cmd, uncontained, err := startIn(c, cmd)
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, &StartError{Command: argv[0], Err: err}
	}
	stdin, stdout := inW, outR
	a := &Agent{cmd: cmd, tree: tree, Stdin: stdin, Stdout: stdout, done: make(chan struct{}), tail: newStderrTail(),
		uncontained: uncontained}
	go a.tail.copy(stderr, errR)
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

// StderrTail returns the last lines the agent wrote to stderr, waiting up to
// wait for what it wrote before exiting to be read.
func (a *Agent) StderrTail(wait time.Duration) []string {
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-a.tail.done:
	case <-t.C:
	}
	return a.tail.lines()
}

// Pid is the agent's process id (on Unix also its process group id); when
// contained, its container's init's, as askbridge sees it.
func (a *Agent) Pid() int { return a.cmd.Process.Pid }

// Stop ends the agent the way the ACP stdio transport expects: close its
// stdin and give it grace to exit, then ask its tree to end (SIGTERM to the
// group on Unix), then kill the tree. Helpers the agent left behind are
// stopped the same way once it has exited.
func (a *Agent) Stop(grace time.Duration) {
	a.Stdin.Close()
	if !a.waitFor(grace) {
		a.tree.terminate()
		if !a.waitFor(grace) {
			a.tree.kill()
			<-a.done
		}
	}
	a.reap(grace)
}

// reap stops what is left of the agent's tree and releases it. Only the
// first call does anything.
func (a *Agent) reap(grace time.Duration) {
	a.reaped.Do(func() { a.tree.reap(grace) })
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

// The agent's stderr that a crash report quotes: the last lines, each cut
// to a readable length.
const (
	tailLines   = 10
	tailLineMax = 300
)

// stderrTail passes the agent's stderr through and keeps its last lines.
type stderrTail struct {
	mu   sync.Mutex
	buf  []byte // the newest bytes, at most tailLines*tailLineMax*2
	done chan struct{}
}

func newStderrTail() *stderrTail { return &stderrTail{done: make(chan struct{})} }

// copy reads r to its end. A failing out does not stop it: the agent must
// never block on a stderr nobody reads.
func (t *stderrTail) copy(out io.Writer, r io.ReadCloser) {
	defer close(t.done)
	defer r.Close()
	buf := make([]byte, 32*1024)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			t.keep(buf[:n])
			if out != nil {
				out.Write(buf[:n])
			}
		}
		if err != nil {
			return
		}
	}
}

func (t *stderrTail) keep(p []byte) {
	const max = tailLines * tailLineMax * 2
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-max:]...)
	}
}

// lines are the last non-blank lines kept.
func (t *stderrTail) lines() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []string
	for _, l := range bytes.Split(t.buf, []byte("\n")) {
		line := strings.TrimSpace(string(bytes.ToValidUTF8(l, []byte("?"))))
		if line == "" {
			continue
		}
		if r := []rune(line); len(r) > tailLineMax {
			line = string(r[:tailLineMax]) + "…"
		}
		out = append(out, line)
	}
	if len(out) > tailLines {
		out = out[len(out)-tailLines:]
	}
	return out
}
