package main

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// probeEnv names the folder where the probe agent writes what it saw from
// inside askbridge's container (contain_e2e_linux_test.go).
const probeEnv = "ASKBRIDGE_CONTAIN_PROBE"

// This test binary is also the probe agent, and the daemon it leaves.
func init() {
	switch {
	case len(os.Args) > 2 && os.Args[1] == "-probe-daemon":
		time.Sleep(10 * time.Minute)
		os.Exit(0)
	case len(os.Args) > 1 && os.Args[1] == "-probe" && os.Getenv(probeEnv) != "":
		os.Exit(containProbe(os.Getenv(probeEnv)))
	}
}

// containProbe tries what an attacker's tool would, as the agent: it
// writes each result to a file of out, then "ready", then waits for
// askbridge's pid and tries to kill it.
func containProbe(out string) int {
	lines := inheritedLines() // first: before the probe opens any of its own
	write := func(name, s string) { os.WriteFile(filepath.Join(out, name), []byte(s), 0o644) }
	write("lines", lines)
	write("proc", strings.Join(procPids(), " "))
	var hidden []string
	for _, d := range filepath.SplitList(os.Getenv("PROBE_HIDDEN")) {
		ents, _ := os.ReadDir(d)
		for _, e := range ents {
			hidden = append(hidden, filepath.Join(d, e.Name()))
		}
	}
	write("hidden", strings.Join(hidden, "\n"))
	write("rename", renameParents())
	write("plant", plant())
	write("hub", hubInside())
	write("dial", errText(dialAsk()))
	write("project", errText(os.WriteFile(filepath.Join(os.Getenv("HOME"), "project", "written"), []byte("x"), 0o644)))
	write("tiocsti", strings.Join([]string{typeInto("/dev/tty"), typeInto(waitFor(filepath.Join(out, "tty")))}, "\n"))
	daemon := exec.Command(os.Args[0], "-probe-daemon", os.Getenv("PROBE_MARKER"))
	daemon.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // as setsid -f
	write("daemon", errText(daemon.Start()))
	write("ready", "")
	if pid, err := strconv.Atoi(waitFor(filepath.Join(out, "askbridge.pid"))); err == nil {
		write("kill", errText(syscall.Kill(pid, syscall.SIGKILL)))
	}
	os.Stdin.Read(make([]byte, 1)) // until askbridge closes it
	return 0
}

// renameParents tries to move each parent of a hidden folder away
// (PROBE_PARENTS), as `mv ~/.config ~/.config.old` would, to leave a fresh
// folder in its place, and again from a user and mount namespace of its
// own where unshare(1) can make one; it says how each went.
func renameParents() string {
	var out []string
	for _, d := range filepath.SplitList(os.Getenv("PROBE_PARENTS")) {
		out = append(out, d+": "+errText(os.Rename(d, d+".old")))
		if unshare, err := exec.LookPath("unshare"); err == nil {
			b, err := exec.Command(unshare, "-Urm", "mv", d, d+".old").CombinedOutput()
			out = append(out, "nested "+d+": "+strings.TrimSpace(string(b))+" "+errText(err))
		}
	}
	return strings.Join(out, "\n")
}

// plant writes a hub key of the agent's own into each hidden folder,
// making it when missing, as the agent's own `askbridge hub` would.
func plant() string {
	var out []string
	for _, d := range filepath.SplitList(os.Getenv("PROBE_HIDDEN")) {
		err := os.MkdirAll(d, 0o700)
		if err == nil {
			err = os.WriteFile(filepath.Join(d, "hub-key"), []byte("planted"), 0o600)
		}
		out = append(out, d+": "+errText(err))
	}
	return strings.Join(out, "\n")
}

// hubInside runs the hub's commands as the agent would (PROBE_ASKBRIDGE,
// for 3 seconds at most: a hub that serves would run on), and returns what
// each said.
func hubInside() string {
	var out []string
	for _, args := range [][]string{{"hub", "--listen", "127.0.0.1:0"}, {"hub", "pair"}, {"hub", "devices"}, {"hub", "revoke", "x"}} {
		cmd := exec.Command(os.Getenv("PROBE_ASKBRIDGE"), args...)
		cmd.WaitDelay = time.Second
		done := make(chan struct{})
		time.AfterFunc(3*time.Second, func() {
			select {
			case <-done:
			default:
				cmd.Process.Kill()
			}
		})
		b, err := cmd.CombinedOutput()
		close(done)
		out = append(out, strings.Join(args, " ")+": "+strings.TrimSpace(string(b))+" ("+errText(err)+")")
	}
	return strings.Join(out, "\n")
}

// waitFor waits (a minute at most) for the test to write path.
func waitFor(path string) string {
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if b, err := os.ReadFile(path); err == nil && len(b) > 0 {
			return string(b)
		}
	}
	return ""
}

func procPids() []string {
	ents, _ := os.ReadDir("/proc")
	var pids []string
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err == nil {
			pids = append(pids, e.Name())
		}
	}
	return pids
}

// dialAsk connects to the agent's ask socket and sends it a line: the
// connection staying up is the socket working (askbridge ask's own tests
// cover the rest).
func dialAsk() error {
	c, err := net.DialTimeout("unix", os.Getenv("ASKBRIDGE_SOCKET"), 5*time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	_, err = c.Write([]byte("\n"))
	return err
}

// typeInto pushes "#probe-typed#" into the terminal at path as if typed
// (TIOCSTI), and says how it went.
func typeInto(path string) string {
	if path == "" {
		return "no path"
	}
	f, err := os.OpenFile(path, os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		return path + ": " + err.Error()
	}
	defer f.Close()
	for _, c := range []byte("#probe-typed#") {
		if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), syscall.TIOCSTI, uintptr(unsafe.Pointer(&c))); errno != 0 {
			return path + ": " + errno.Error()
		}
	}
	return path + ": typed"
}

func errText(err error) string {
	if err == nil {
		return "ok"
	}
	return fmt.Sprint(err)
}

// inheritedLines names the pipes and sockets the agent holds besides its
// stdin, stdout and stderr: a line to askbridge or its init that it was
// handed at its start.
func inheritedLines() string {
	ents, _ := os.ReadDir("/proc/self/fd")
	var out []string
	for _, e := range ents {
		if n, err := strconv.Atoi(e.Name()); err != nil || n <= 2 {
			continue
		}
		target, _ := os.Readlink(filepath.Join("/proc/self/fd", e.Name()))
		if strings.HasPrefix(target, "pipe:") || strings.HasPrefix(target, "socket:") {
			out = append(out, e.Name()+" "+target)
		}
	}
	return strings.Join(out, "\n")
}
