package nsinit

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"unsafe"
)

// From <linux/prctl.h>, <linux/capability.h> and <fcntl.h>: package
// syscall lacks them, and golang.org/x/sys/unix would be initialized late
// (see doc.go).
const (
	prSetDumpable        = 4
	prCapbsetDrop        = 24
	prCapAmbient         = 47
	prCapAmbientClearAll = 4
	capSysPtrace         = 19
	capSysAdmin          = 21
	linuxCapabilityV3    = 0x20080522
	oPath                = 0x200000
)

// setUp makes the init's namespaces a container: enter, then seal.
func setUp(o options) error {
	if err := enter(o.uid, o.gid); err != nil {
		return err
	}
	return seal(o)
}

// enter is the part of setting up that needs nothing of the agent: the
// user's ids mapped to themselves (uid < 0: mapped already), the init not
// dumpable, and a /proc that shows only the namespace.
func enter(uid, gid int) error {
	if uid >= 0 {
		if err := mapIDs(uid, gid); err != nil {
			return err
		}
	}
	// Not dumpable (once its own /proc files are written): the agent, same
	// uid, cannot trace the init or read its memory, and so cannot borrow
	// its capabilities.
	if err := prctl(prSetDumpable, 0); err != nil {
		return wrap("prctl", err)
	}
	// Nothing mounted here reaches the user's other processes.
	if err := syscall.Mount("", "/", "", syscall.MS_REC|syscall.MS_SLAVE, ""); err != nil {
		return wrap("making / private to the container", err)
	}
	if err := syscall.Mount("proc", "/proc", "proc", syscall.MS_NOSUID|syscall.MS_NODEV|syscall.MS_NOEXEC, ""); err != nil {
		return wrap("mounting a /proc of the container's own", err)
	}
	return nil
}

// seal hides askbridge's folders but for the agent's ask socket, pins
// their parents where they are (pin_linux.go), and leaves no capability on
// this thread, the one that starts the agent.
func seal(o options) error {
	keep, err := openKept(o.keep, o.hide)
	if err != nil {
		return err
	}
	defer func() {
		for _, fd := range keep {
			syscall.Close(fd)
		}
	}()
	if err := pin(pinned(o.hide, o.home, os.Getuid())); err != nil {
		return err
	}
	hidden, err := hide(o.hide)
	if err != nil {
		return err
	}
	for dir, fd := range keep {
		if err := bindBack(dir, fd, hidden); err != nil {
			return err
		}
	}
	return dropCaps()
}

// mapIDs maps the user's ids to themselves in the new user namespace.
func mapIDs(uid, gid int) error {
	for _, w := range [][2]string{
		{"/proc/self/setgroups", "deny"},
		{"/proc/self/gid_map", strconv.Itoa(gid) + " " + strconv.Itoa(gid) + " 1\n"},
		{"/proc/self/uid_map", strconv.Itoa(uid) + " " + strconv.Itoa(uid) + " 1\n"},
	} {
		if err := os.WriteFile(w[0], []byte(w[1]), 0); err != nil {
			return wrap("mapping the user's ids", err)
		}
	}
	return nil
}

// openKept opens each kept path's folder that lies in a hidden one, by
// path only, before the folder is hidden.
func openKept(keep, hide []string) (map[string]int, error) {
	out := map[string]int{}
	for _, k := range keep {
		dir := k[:max(strings.LastIndexByte(k, '/'), 1)] // its folder: paths are absolute
		for _, h := range hide {
			if _, done := out[dir]; done || !under(dir, h) {
				continue
			}
			fd, err := syscall.Open(dir, oPath|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
			if err != nil {
				return nil, wrap("keeping "+dir, err)
			}
			out[dir] = fd
		}
	}
	return out, nil
}

// hide mounts an empty tmpfs, the user's alone, over each folder that
// exists, and returns those it hid. Its source is HiddenSource: how
// askbridge knows, from inside, that it runs in a container (Inside).
func hide(dirs []string) ([]string, error) {
	var hidden []string
	for _, d := range dirs {
		fi, err := os.Lstat(d)
		if err != nil || !fi.IsDir() {
			continue // not there (or not a folder): nothing to hide
		}
		if err := syscall.Mount(HiddenSource, d, "tmpfs", syscall.MS_NOSUID|syscall.MS_NODEV, "mode=0700,size=1m"); err != nil {
			return nil, wrap("hiding "+d, err)
		}
		hidden = append(hidden, d)
	}
	return hidden, nil
}

// bindBack puts a kept folder back where it was, inside a hidden one.
func bindBack(dir string, fd int, hidden []string) error {
	for _, h := range hidden {
		if !under(dir, h) {
			continue
		}
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return wrap("keeping "+dir, err)
		}
		if err := syscall.Mount("/proc/self/fd/"+strconv.Itoa(fd), dir, "", syscall.MS_BIND, ""); err != nil {
			return wrap("keeping "+dir, err)
		}
		return nil
	}
	return nil
}

// dropCaps leaves this thread no capability to hand the agent: none
// effective, permitted, inheritable or ambient, and (where the init may,
// as root) none to regain at exec of the two that would undo the
// container, CAP_SYS_ADMIN (unmount what hides askbridge's folders) and
// CAP_SYS_PTRACE.
func dropCaps() error {
	for _, c := range []uintptr{capSysAdmin, capSysPtrace} {
		if err := prctl(prCapbsetDrop, c); err != nil && os.Geteuid() == 0 {
			return wrap("dropping capabilities", err)
		}
	}
	prctl(prCapAmbient, prCapAmbientClearAll)
	hdr := struct{ version, pid uint32 }{version: linuxCapabilityV3}
	var data [2]struct{ effective, permitted, inheritable uint32 }
	if _, _, errno := syscall.RawSyscall(syscall.SYS_CAPSET, uintptr(unsafe.Pointer(&hdr)), uintptr(unsafe.Pointer(&data[0])), 0); errno != 0 {
		return wrap("dropping capabilities", errno)
	}
	return nil
}

func prctl(option, arg uintptr) error {
	if _, _, errno := syscall.RawSyscall6(syscall.SYS_PRCTL, option, arg, 0, 0, 0, 0); errno != 0 {
		return errno
	}
	return nil
}

func wrap(what string, err error) error { return errors.New(what + ": " + err.Error()) }
