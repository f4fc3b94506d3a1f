package contain

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/askbridge/askbridge/internal/contain/prestart"
)

// statusWait bounds how long Start waits for the init to say the agent
// runs: setting up takes milliseconds, a stuck init is refused.
const statusWait = 10 * time.Second

// Start starts cmd (as exec.Command made it, not started) contained, and
// returns the process that stands for the agent: the namespaces' init,
// which exits with the agent's status once the agent has exited and what it
// left behind has ended. Its process group is its own (a session), so a
// signal to askbridge's group does not reach it; SIGTERM to it is passed on
// to every process in the container, SIGKILL ends them all.
//
// An error wrapping ErrRefused means nothing was started and the system
// will not contain; any other error is the agent's own start error.
func Start(cmd *exec.Cmd, o Options) (*exec.Cmd, error) {
	if cmd.Err != nil {
		return nil, cmd.Err // not found on PATH: the agent's error, contained or not
	}
	if e := takeEarly(); e != nil {
		if init, err, used := e.start(cmd, o); used {
			return init, err
		}
	}
	init := &exec.Cmd{
		Path: prestart.Self, Args: initArgs(cmd, o), Env: cmd.Env, Dir: cmd.Dir,
		Stdin: cmd.Stdin, Stdout: cmd.Stdout, Stderr: cmd.Stderr,
		SysProcAttr: prestart.Namespaces(),
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, refused(err)
	}
	defer r.Close()
	init.ExtraFiles = []*os.File{w} // fd 3: the init's status line
	err = init.Start()
	w.Close()
	if err != nil {
		return nil, refused(err) // clone refused: EPERM, EINVAL, ENOSPC
	}
	if err := readStatus(r); err != nil {
		init.Process.Kill()
		init.Wait()
		return nil, err
	}
	return init, nil
}

// initArgs is the init's command line: askbridge's hidden mode, what to
// hide and keep, then the agent's resolved path and its argv.
func initArgs(cmd *exec.Cmd, o Options) []string {
	args := []string{"askbridge", InitArg, "-grace", o.Grace.String()}
	if os.Geteuid() != 0 {
		// The init maps the user's ids itself: askbridge is not dumpable,
		// so the init's /proc files are root's until it execs.
		args = append(args, "-uid", strconv.Itoa(os.Geteuid()), "-gid", strconv.Itoa(os.Getegid()))
	}
	for _, h := range o.Hide {
		args = append(args, "-hide", h)
	}
	for _, k := range o.Keep {
		args = append(args, "-keep", k)
	}
	if home := homeOf(cmd); home != "" {
		if r, err := filepath.EvalSymlinks(home); err == nil {
			home = r
		}
		args = append(args, "-home", home) // resolved here: nsinit imports no path/filepath
	}
	args = append(args, "--", cmd.Path)
	return append(args, cmd.Args...)
}

// homeOf is the HOME the agent (and so the init) is given.
func homeOf(cmd *exec.Cmd) string {
	if cmd.Env == nil {
		return os.Getenv("HOME")
	}
	home := ""
	for _, kv := range cmd.Env {
		if v, ok := strings.CutPrefix(kv, "HOME="); ok {
			home = v // the last one wins, as for exec
		}
	}
	return home
}

// readStatus reads the init's one line: "ok", "refused: why" or
// "start: errno".
func readStatus(r *os.File) error {
	r.SetReadDeadline(time.Now().Add(statusWait))
	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return refusedf("the container's init did not start the agent within %v", statusWait)
		}
		return refusedf("the container's init ended before the agent started")
	}
	kind, msg, _ := strings.Cut(strings.TrimSpace(line), ": ")
	switch kind {
	case "ok":
		return nil
	case "start":
		if n, err := strconv.Atoi(msg); err == nil {
			return syscall.Errno(n)
		}
		return errors.New(msg)
	default:
		return refused(errors.New(msg))
	}
}
