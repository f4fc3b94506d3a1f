package contain

import (
	"flag"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
	"time"
)

// initOptions are the init's flags (initArgs).
type initOptions struct {
	Options
	uid, gid int // -1: mapped by askbridge already (root)
	path     string
	argv     []string
}

// Init is the namespaces' init: set the container up, start the agent,
// reap, and exit with the agent's status. Its status line (fd 3) tells
// Start how it went.
func Init(args []string) int {
	// Everything that needs or drops a capability, and the agent's fork,
	// happens on this one thread: capabilities are a thread's.
	runtime.LockOSThread()
	st := os.NewFile(3, "status")
	o, err := parseInit(args)
	if err != nil {
		status(st, "refused", err)
		return 125
	}
	if err := setUp(o); err != nil {
		status(st, "refused", err)
		return 125
	}
	sigs := make(chan os.Signal, 16)
	signal.Notify(sigs, syscall.SIGCHLD, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	pid, err := syscall.ForkExec(o.path, o.argv, &syscall.ProcAttr{
		Env:   os.Environ(),
		Files: []uintptr{0, 1, 2},
		Sys:   &syscall.SysProcAttr{Setsid: true}, // no controlling terminal
	})
	if err != nil {
		if errno, ok := err.(syscall.Errno); ok {
			status(st, "start", int(errno))
		} else {
			status(st, "start", err)
		}
		return 127
	}
	st.WriteString("ok\n")
	st.Close()
	// The agent holds the pipes; the init keeps none of them open.
	if null, err := os.Open(os.DevNull); err == nil {
		syscall.Dup3(int(null.Fd()), 0, 0)
		syscall.Dup3(int(null.Fd()), 1, 0)
		null.Close()
	}
	return reap(pid, o.Grace, sigs)
}

func parseInit(args []string) (initOptions, error) {
	o := initOptions{uid: -1, gid: -1}
	fs := flag.NewFlagSet(InitArg, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.DurationVar(&o.Grace, "grace", 2*time.Second, "")
	fs.IntVar(&o.uid, "uid", -1, "")
	fs.IntVar(&o.gid, "gid", -1, "")
	fs.Func("hide", "", func(s string) error { o.Hide = append(o.Hide, s); return nil })
	fs.Func("keep", "", func(s string) error { o.Keep = append(o.Keep, s); return nil })
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	rest := fs.Args()
	if len(rest) < 2 {
		return o, errorString("no agent command")
	}
	if o.Grace <= 0 {
		o.Grace = 2 * time.Second
	}
	o.path, o.argv = rest[0], rest[1:]
	return o, nil
}

type errorString string

func (e errorString) Error() string { return string(e) }

// reap waits for the init's children (every orphan in the namespace is
// one) until the agent exits, passing on SIGTERM, SIGINT and SIGHUP to
// every process in the namespace. Then what is left gets SIGTERM and grace
// to end; the kernel kills the rest when the init returns.
func reap(agent int, grace time.Duration, sigs <-chan os.Signal) int {
	code := -1
	for code < 0 {
		code = reapSome(agent)
		if code == -2 {
			return 1 // cannot happen: the agent is the init's child
		}
		if code >= 0 {
			break
		}
		if sig := (<-sigs).(syscall.Signal); sig != syscall.SIGCHLD {
			syscall.Kill(-1, sig)
		}
	}
	syscall.Kill(-1, syscall.SIGTERM)
	deadline := time.NewTimer(grace)
	defer deadline.Stop()
	for {
		if reapSome(0) == -2 {
			return code
		}
		select {
		case <-sigs:
		case <-deadline.C:
			return code
		}
	}
}

// reapSome reaps the children that have ended: the agent's exit code when
// it is among them (want), -2 when no child is left, else -1.
func reapSome(want int) int {
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
		switch {
		case err == syscall.ECHILD:
			return -2
		case err == syscall.EINTR:
			continue
		case err != nil || pid <= 0:
			return -1
		case pid == want && ws.Signaled():
			return 128 + int(ws.Signal())
		case pid == want:
			return ws.ExitStatus()
		}
	}
}

// under reports whether path is dir or inside it.
func under(path, dir string) bool {
	return path == dir || strings.HasPrefix(path, strings.TrimSuffix(dir, "/")+"/")
}
