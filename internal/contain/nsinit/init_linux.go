package nsinit

import (
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"syscall"
	"time"

	"github.com/askbridge/askbridge/internal/ctty"
)

// Init is the namespaces' init: set the container up, start the agent,
// reap, and exit with the agent's status. Its status line (fd 3) tells
// package contain how it went. Started early (AwaitArg), it reads its
// orders on fd 3 first (await_linux.go).
func Init(args []string) int {
	// Everything that needs or drops a capability, and the agent's fork,
	// happens on this one thread: capabilities are a thread's.
	runtime.LockOSThread()
	// Fd 3 (the status pipe, or the orders socket) is askbridge's and the
	// init's: the agent must not inherit it and write a status line of
	// its own.
	syscall.CloseOnExec(3)
	if len(args) > 0 && args[0] == AwaitArg {
		return awaitOrders(args[1:])
	}
	st := os.NewFile(3, "status")
	o, err := parse(args)
	if err != nil {
		status(st, "refused", err.Error())
		return 125
	}
	if err := setUp(o); err != nil {
		status(st, "refused", err.Error())
		return 125
	}
	return startAgent(o, st, os.Environ(), "", []uintptr{0, 1, 2}, func() {})
}

// startAgent starts the agent with files as its stdin, stdout and stderr,
// says on st how that went, lets go of them (started: the agent holds
// them), and reaps until the agent exits.
func startAgent(o options, st *os.File, env []string, dir string, files []uintptr, letGo func()) int {
	sigs := make(chan os.Signal, 16)
	signal.Notify(sigs, syscall.SIGCHLD, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	pid, err := syscall.ForkExec(o.path, o.argv, &syscall.ProcAttr{
		Env:   env,
		Dir:   dir,
		Files: files,
		Sys:   agentAttr(),
	})
	if err != nil {
		if errno, ok := err.(syscall.Errno); ok {
			status(st, "start", strconv.Itoa(int(errno)))
		} else {
			status(st, "start", err.Error())
		}
		return 127
	}
	letGo()
	st.WriteString("ok\n")
	st.Close()
	// The agent holds the pipes; the init keeps none of them open.
	if null, err := syscall.Open(os.DevNull, syscall.O_RDWR|syscall.O_CLOEXEC, 0); err == nil {
		syscall.Dup3(null, 0, 0)
		syscall.Dup3(null, 1, 0)
		syscall.Close(null)
	}
	return reap(pid, o.grace, sigs)
}

// reap waits for the init's children (every orphan in the namespace is
// one) until the agent exits, passing on SIGTERM, SIGINT and SIGHUP to
// every process in the namespace. Then what is left gets SIGTERM and grace
// to end; the kernel kills the rest when the init returns.
func reap(agent int, grace time.Duration, sigs <-chan os.Signal) int {
	code := -1
	for {
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

// agentAttr puts the agent in a session of its own where the init has a
// controlling terminal (it has none after), else in a process group.
func agentAttr() *syscall.SysProcAttr {
	attr := &syscall.SysProcAttr{}
	ctty.Leave(attr)
	return attr
}
