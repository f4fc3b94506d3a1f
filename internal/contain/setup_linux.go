package contain

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"
)

// setUp makes the init's namespaces a container: the user's ids mapped to
// themselves, a /proc that shows only the namespace, askbridge's folders
// empty but for the agent's ask socket, and no capability left on this
// thread, the one that starts the agent.
func setUp(o initOptions) error {
	if o.uid >= 0 {
		if err := mapIDs(o.uid, o.gid); err != nil {
			return err
		}
	}
	// Not dumpable (once its own /proc files are written): the agent, same
	// uid, cannot trace the init or read its memory, and so cannot borrow
	// its capabilities.
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return fmt.Errorf("prctl: %w", err)
	}
	// Nothing mounted here reaches the user's other processes.
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_SLAVE, ""); err != nil {
		return fmt.Errorf("making / private to the container: %w", err)
	}
	keep, err := openKept(o.Keep, o.Hide)
	if err != nil {
		return err
	}
	defer func() {
		for _, f := range keep {
			f.Close()
		}
	}()
	if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("mounting a /proc of the container's own: %w", err)
	}
	hidden, err := hide(o.Hide)
	if err != nil {
		return err
	}
	for dir, f := range keep {
		if err := bindBack(dir, f, hidden); err != nil {
			return err
		}
	}
	return dropCaps()
}

// mapIDs maps the user's ids to themselves in the new user namespace.
func mapIDs(uid, gid int) error {
	for _, w := range []struct{ file, text string }{
		{"/proc/self/setgroups", "deny"},
		{"/proc/self/gid_map", fmt.Sprintf("%d %d 1\n", gid, gid)},
		{"/proc/self/uid_map", fmt.Sprintf("%d %d 1\n", uid, uid)},
	} {
		if err := os.WriteFile(w.file, []byte(w.text), 0); err != nil {
			return fmt.Errorf("mapping the user's ids: %w", err)
		}
	}
	return nil
}

// openKept opens each kept path's folder that lies in a hidden one, by
// path only, before the folder is hidden.
func openKept(keep, hide []string) (map[string]*os.File, error) {
	out := map[string]*os.File{}
	for _, k := range keep {
		dir := filepath.Dir(k)
		for _, h := range hide {
			if !under(dir, h) || out[dir] != nil {
				continue
			}
			fd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
			if err != nil {
				return nil, fmt.Errorf("keeping %s: %w", dir, err)
			}
			out[dir] = os.NewFile(uintptr(fd), dir)
		}
	}
	return out, nil
}

// hide mounts an empty tmpfs, the user's alone, over each folder that
// exists, and returns those it hid.
func hide(dirs []string) ([]string, error) {
	var hidden []string
	for _, d := range dirs {
		fi, err := os.Lstat(d)
		if err != nil || !fi.IsDir() {
			continue // not there (or not a folder): nothing to hide
		}
		if err := unix.Mount("tmpfs", d, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=0700,size=1m"); err != nil {
			return nil, fmt.Errorf("hiding %s: %w", d, err)
		}
		hidden = append(hidden, d)
	}
	return hidden, nil
}

// bindBack puts a kept folder back where it was, inside a hidden one.
func bindBack(dir string, f *os.File, hidden []string) error {
	for _, h := range hidden {
		if !under(dir, h) {
			continue
		}
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("keeping %s: %w", dir, err)
		}
		src := "/proc/self/fd/" + strconv.Itoa(int(f.Fd()))
		if err := unix.Mount(src, dir, "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("keeping %s: %w", dir, err)
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
	for _, c := range []uintptr{unix.CAP_SYS_ADMIN, unix.CAP_SYS_PTRACE} {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, c, 0, 0, 0); err != nil && os.Geteuid() == 0 {
			return fmt.Errorf("dropping capabilities: %w", err)
		}
	}
	unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("dropping capabilities: %w", err)
	}
	return nil
}
