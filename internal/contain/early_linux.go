package contain

import (
	"os"
	"os/exec"
	"syscall"

	"github.com/askbridge/askbridge/internal/contain/nsinit"
	"github.com/askbridge/askbridge/internal/contain/prestart"
)

// early is the init package prestart started as askbridge began: an
// exec.Cmd (askbridge's child, waited for as any other) and askbridge's
// end of the socket its orders go on.
type early struct {
	init *exec.Cmd
	sock int
}

// takeEarly hands the early init, if any, to one Start.
func takeEarly() *early { return earlyOf(prestart.Take()) }

func earlyOf(i *prestart.Init) *early {
	if i == nil {
		return nil
	}
	p, err := os.FindProcess(i.Pid)
	if err != nil {
		syscall.Close(i.Sock)
		return nil
	}
	return &early{init: &exec.Cmd{Path: prestart.Self, Args: []string{"askbridge", InitArg, nsinit.AwaitArg}, Process: p}, sock: i.Sock}
}

// start gives the early init the orders Start would have started a late
// one with, and cmd's stdin, stdout and stderr. used is false (and the
// init let go: without orders it ends) where those are not files.
func (e *early) start(cmd *exec.Cmd, o Options) (_ *exec.Cmd, err error, used bool) {
	var files []int
	for _, f := range []any{cmd.Stdin, cmd.Stdout, cmd.Stderr} {
		file, ok := f.(*os.File)
		if !ok {
			e.drop()
			return nil, nil, false
		}
		files = append(files, int(file.Fd()))
	}
	env := cmd.Env
	if env == nil {
		env = os.Environ()
	}
	msg, err := nsinit.Orders{Args: initArgs(cmd, o)[2:], Env: env, Dir: cmd.Dir}.Encode()
	if err != nil {
		e.drop()
		return nil, err, true // the agent's own command line: no container takes it
	}
	// A send that fails (the init has ended) leaves its status line to say why.
	if n, err := syscall.SendmsgN(e.sock, msg, syscall.UnixRights(files...), nil, syscall.MSG_NOSIGNAL); err == nil {
		sendRest(e.sock, msg[n:])
	}
	if err := syscall.SetNonblock(e.sock, true); err != nil {
		e.init.Process.Kill()
		e.drop()
		return nil, refused(err), true
	}
	st := os.NewFile(uintptr(e.sock), "orders") // pollable now: readStatus sets a deadline
	defer st.Close()
	if err := readStatus(st); err != nil {
		e.init.Process.Kill()
		e.init.Wait()
		return nil, err, true
	}
	return e.init, nil, true
}

// drop lets the early init go: without orders it ends.
func (e *early) drop() {
	syscall.Close(e.sock)
	go e.init.Wait()
}

// sendRest writes what a first send left (the socket blocks: no busy loop).
func sendRest(fd int, b []byte) {
	for len(b) > 0 {
		n, err := syscall.Write(fd, b)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return
		}
		b = b[n:]
	}
}
