//go:build linux

package prestart

import (
	"syscall"

	"github.com/askbridge/askbridge/internal/ctty"
)

// The init's hidden arguments, as package nsinit reads them (nsinit.Arg,
// nsinit.AwaitArg: a test holds them equal; importing nsinit would
// initialize this package late).
const (
	initArg  = "__contain-init"
	awaitArg = "-await"
)

// Self is the running binary, as the kernel knows it: the init is
// askbridge itself, whatever has been put at its path since.
const Self = "/proc/self/exe"

// Init is a started init waiting for its orders: its process id and
// askbridge's end of the socket they go on (close-on-exec).
type Init struct {
	Pid  int
	Sock int
}

var (
	done    chan struct{} // closed once the init has started, or failed to
	started *Init
)

// init starts the init on a goroutine of its own: cloning into a new user
// namespace takes a few milliseconds that askbridge spends initializing
// the rest of its packages instead. (The init's Pdeathsig is bound to the
// thread that forks it, which ends only if a goroutine ends locked to it:
// askbridge has none.)
func init() {
	if Wanted(cmdline()) {
		done = make(chan struct{})
		go func() {
			started, _ = Start() // refused: contain.Start tries again and says why
			close(done)
		}()
	}
}

// Take hands the init started at askbridge's start, if any, to its one
// user (waiting for it to have started); nil after that, or where none
// was started.
func Take() *Init {
	if done != nil {
		<-done
	}
	i := started
	started = nil
	return i
}

// Start starts an init that enters its namespaces and waits for orders on
// fd 3. Its error is the system's (clone refused: EPERM, EINVAL, ENOSPC).
func Start() (*Init, error) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	null, err := syscall.Open("/dev/null", syscall.O_RDWR|syscall.O_CLOEXEC, 0)
	if err != nil {
		syscall.Close(fds[0])
		syscall.Close(fds[1])
		return nil, err
	}
	args := []string{"askbridge", initArg, awaitArg}
	if uid := syscall.Geteuid(); uid != 0 {
		args = append(args, "-uid", itoa(uid), "-gid", itoa(syscall.Getegid()))
	}
	// Not askbridge's environment: the agent's comes with the orders. One
	// processor: the init has no work to spread, and on a machine of few
	// cores its threads took time from askbridge's own start beside it
	// (containbench: 8.0 ms against 11.3 with the default).
	pid, err := syscall.ForkExec(Self, args, &syscall.ProcAttr{
		Env:   []string{"GOMAXPROCS=1"},
		Files: []uintptr{uintptr(null), uintptr(null), uintptr(null), uintptr(fds[1])},
		Sys:   Namespaces(),
	})
	syscall.Close(null)
	syscall.Close(fds[1])
	if err != nil {
		syscall.Close(fds[0])
		return nil, err
	}
	return &Init{Pid: pid, Sock: fds[0]}, nil
}

// Namespaces is how an init starts: new user, PID and mount namespaces, a
// session of its own where askbridge has a terminal (else a process group:
// package ctty), killed when askbridge dies. CAP_SYS_ADMIN in its new user
// namespace survives its exec (an ambient capability) so that it can map
// its ids and mount; it drops it before the agent starts.
func Namespaces() *syscall.SysProcAttr {
	attr := &syscall.SysProcAttr{
		Pdeathsig:   syscall.SIGKILL,
		Cloneflags:  syscall.CLONE_NEWUSER | syscall.CLONE_NEWPID | syscall.CLONE_NEWNS,
		AmbientCaps: []uintptr{capSysAdmin},
	}
	ctty.Leave(attr)
	if syscall.Geteuid() == 0 {
		// Root may map every id, and askbridge's undumpable /proc files
		// are its own: every file keeps its owner as root sees it.
		all := []syscall.SysProcIDMap{{ContainerID: 0, HostID: 0, Size: 1<<32 - 1}}
		attr.UidMappings, attr.GidMappings = all, all
		attr.GidMappingsEnableSetgroups = true
	}
	return attr
}

const capSysAdmin = 21 // CAP_SYS_ADMIN, <linux/capability.h>

// cmdline is askbridge's arguments, its name left out.
func cmdline() []string {
	fd, err := syscall.Open("/proc/self/cmdline", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	defer syscall.Close(fd)
	var b []byte
	buf := make([]byte, 4096)
	for {
		n, err := syscall.Read(fd, buf)
		if n > 0 {
			b = append(b, buf[:n]...)
		}
		if err == syscall.EINTR {
			continue
		}
		if err != nil || n <= 0 {
			break
		}
	}
	if args := split(b); len(args) > 1 {
		return args[1:]
	}
	return nil
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for ; n > 0; n /= 10 {
		i--
		b[i] = byte('0' + n%10)
	}
	return string(b[i:])
}
