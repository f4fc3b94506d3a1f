//go:build unix

package relay

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// watchdog ends the agent's process group when askbridge dies, where the
// kernel will not (no Pdeathsig on macOS). It is a tiny sh whose stdin is a
// pipe only askbridge holds the write end of: when askbridge exits, however
// (SIGKILL included), the kernel closes that end, the watchdog's read
// returns, and it sends the group SIGTERM, then SIGKILL if anything is left
// after watchdogGrace. It leads a process group of its own, so that a
// signal to askbridge's group (an editor stopping it, a terminal's Ctrl-C)
// does not take it down before it has done its work.
//
// askbridge stops it (SIGKILL) once it has stopped the agent itself, before
// closing the pipe, so that it never signals a group id that may have been
// reused.
type watchdog struct {
	cmd  *exec.Cmd
	pipe *os.File // the write end; its closing is the alarm
}

// watchdogScript is run by sh with the group id as $1: wait for EOF, then
// TERM, up to 20 polls of 100 ms, KILL.
const watchdogScript = `read _
kill -s TERM -- "-$1" 2>/dev/null || exit 0
i=0
while [ "$i" -lt 20 ]; do
  sleep 0.1
  kill -s 0 -- "-$1" 2>/dev/null || exit 0
  i=$((i+1))
done
kill -s KILL -- "-$1" 2>/dev/null
exit 0`

// startWatchdog guards pgid. It returns nil when no watchdog could start:
// the agent then runs unguarded, as it would have anyway.
func startWatchdog(pgid int) *watchdog {
	r, w, err := os.Pipe() // close-on-exec: no other child inherits w
	if err != nil {
		return nil
	}
	defer r.Close()
	cmd := exec.Command("/bin/sh", "-c", watchdogScript, "askbridge-watchdog", strconv.Itoa(pgid))
	cmd.Stdin = r
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		w.Close()
		return nil
	}
	return &watchdog{cmd: cmd, pipe: w}
}

// stop ends the watchdog without its firing. Safe on nil.
func (d *watchdog) stop() {
	if d == nil {
		return
	}
	d.cmd.Process.Kill()
	d.cmd.Wait()
	d.pipe.Close()
}
