package activation

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// firstFD is where the sockets start (SD_LISTEN_FDS_START).
const firstFD = 3

// The variables of the protocol.
const (
	pidEnv   = "LISTEN_PID"
	fdsEnv   = "LISTEN_FDS"
	namesEnv = "LISTEN_FDNAMES"
)

// files are the sockets handed to this process, named as the unit's
// FileDescriptorName says (LISTEN_FDNAMES, "" when not given); none when
// no manager handed any, or handed them to another process (LISTEN_PID is
// not ours: a parent's variables leaked into our environment). The
// variables are unset either way, so that no child of ours takes them as
// its own, and each socket is close-on-exec from here on.
func files() ([]*os.File, error) {
	pid, fds, names := os.Getenv(pidEnv), os.Getenv(fdsEnv), os.Getenv(namesEnv)
	for _, name := range []string{pidEnv, fdsEnv, namesEnv} {
		os.Unsetenv(name)
	}
	if fds == "" || pid != strconv.Itoa(os.Getpid()) {
		return nil, nil
	}
	n, err := strconv.Atoi(fds)
	if err != nil || n < 0 {
		return nil, fmt.Errorf("%s=%q: want a number of sockets", fdsEnv, fds)
	}
	named := strings.Split(names, ":")
	var out []*os.File
	for i := range n {
		fd := firstFD + i
		if _, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err != nil {
			for _, f := range out {
				f.Close()
			}
			return nil, fmt.Errorf("%s=%d, but fd %d is not open: %w", fdsEnv, n, fd, err)
		}
		unix.CloseOnExec(fd)
		name := ""
		if i < len(named) && names != "" {
			name = named[i]
		}
		out = append(out, os.NewFile(uintptr(fd), name))
	}
	return out, nil
}
