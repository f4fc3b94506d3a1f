package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/askbridge/askbridge/internal/pty"
	"github.com/askbridge/askbridge/testkit/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// The agent's tools, run as the user (an ordinary one: as root, the test
// runs askbridge as nobody), against askbridge in a real terminal. Each
// subtest is one thing a contained agent cannot do, or can still do.
// Against askbridge before --contain, every "cannot" failed.
func TestContainedAgent(t *testing.T) {
	t.Parallel()
	c := startContained(t, "--hub", "off")
	read := func(name string) string { b, _ := os.ReadFile(filepath.Join(c.out, name)); return string(b) }

	t.Run("its /proc shows only its own tree", func(t *testing.T) {
		pids := strings.Fields(read("proc"))
		assert.NotContains(t, pids, strconv.Itoa(c.cmd.Process.Pid), "askbridge")
		assert.NotContains(t, pids, strconv.Itoa(os.Getpid()), "the user's other processes")
		assert.Contains(t, pids, "1", "its init")
		assert.Less(t, len(pids), 20, "%v", pids)
	})
	t.Run("askbridge's folders are empty to it", func(t *testing.T) {
		for _, f := range strings.Fields(read("hidden")) {
			assert.True(t, strings.HasPrefix(filepath.Base(f), "ask-"), "the agent sees %s", f)
		}
		assert.NotContains(t, read("hidden"), "secret")
	})
	t.Run("it cannot rename their parents away", func(t *testing.T) { c.parentsPinned(t) })
	t.Run("it cannot plant a hub key in them", func(t *testing.T) { c.nothingPlanted(t) })
	t.Run("it cannot run a hub", func(t *testing.T) { c.noHubInside(t) })
	t.Run("it holds no line to askbridge or its init", func(t *testing.T) {
		// What this test was itself handed (by whatever started it) passes
		// through askbridge as through any program, and is no line to it.
		outside := map[string]bool{}
		for _, l := range strings.Split(inheritedLines(), "\n") {
			if _, target, ok := strings.Cut(l, " "); ok {
				outside[target] = true
			}
		}
		for _, l := range strings.Split(read("lines"), "\n") {
			if _, target, ok := strings.Cut(l, " "); ok && !outside[target] {
				t.Errorf("the agent holds %s", l)
			}
		}
	})
	t.Run("its ask socket works", func(t *testing.T) {
		assert.Equal(t, "ok", read("dial"))
	})
	t.Run("the user's files stay as they were", func(t *testing.T) {
		assert.Equal(t, "ok", read("project"))
		fi, err := os.Stat(filepath.Join(c.home, "project", "written"))
		require.NoError(t, err)
		assert.Equal(t, uint32(c.uid), fi.Sys().(*syscall.Stat_t).Uid, "the file keeps the user as its owner")
	})
	t.Run("it cannot type into askbridge's terminal", func(t *testing.T) {
		for _, l := range strings.Split(read("tiocsti"), "\n") {
			assert.NotContains(t, l, "typed", "TIOCSTI %s", l)
		}
		assert.NotContains(t, c.terminal(), "#probe-typed#")
	})
	t.Run("it cannot signal askbridge", func(t *testing.T) {
		require.NoError(t, os.WriteFile(filepath.Join(c.out, "askbridge.pid"), []byte(strconv.Itoa(c.cmd.Process.Pid)), 0o644))
		got := waitFile(t, filepath.Join(c.out, "kill"))
		assert.Equal(t, "no such process", got, "kill -9 askbridge")
		assert.NoError(t, syscall.Kill(c.cmd.Process.Pid, 0), "askbridge is alive")
		assert.Equal(t, "running", c.state())
	})
	t.Run("a setsid daemon it starts dies when askbridge is SIGKILLed", func(t *testing.T) {
		assert.Equal(t, "ok", read("daemon"))
		require.NotEmpty(t, markedPids(c.marker), "the daemon runs")
		c.cmd.Process.Kill()
		deadline := time.Now().Add(10 * time.Second)
		for len(markedPids(c.marker)) > 0 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		assert.Empty(t, markedPids(c.marker), "the daemon outlived askbridge")
	})
}

// Uncontained (--contain off, or where the system refuses), the agent still
// has no terminal to type into, and askbridge says it is not contained.
func TestUncontainedAgentSaysSoAndHasNoTerminal(t *testing.T) {
	t.Parallel()
	c := startContained(t, "--hub", "off", "--contain", "off")
	assert.Contains(t, c.terminal(), "not contained: anything this agent starts can act as you")
	tiocsti := waitFile(t, filepath.Join(c.out, "tiocsti"))
	for _, l := range strings.Split(tiocsti, "\n") {
		assert.NotContains(t, l, "typed", "TIOCSTI %s", l)
	}
	assert.NotContains(t, c.terminal(), "#probe-typed#")
}

// contained is askbridge (as an ordinary user, in a pseudo-terminal)
// running the probe agent.
type contained struct {
	cmd               *exec.Cmd
	out, home, marker string
	hidden            []string // askbridge's folders, the custom hub socket's too
	uid               int
	mu                sync.Mutex
	tty               bytes.Buffer
	exited            chan struct{}
}

// startContained starts askbridge with args and the probe agent, with a
// file in each of askbridge's folders.
func startContained(t *testing.T, args ...string) *contained { return startProbe(t, false, args...) }

// startProbe starts askbridge with args and the probe agent; on a fresh
// account, none of askbridge's folders exists before askbridge starts.
func startProbe(t *testing.T, fresh bool, args ...string) *contained {
	dir := t.TempDir()
	require.NoError(t, os.Chmod(dir, 0o755))
	require.NoError(t, os.Chmod(filepath.Dir(dir), 0o755))
	c := &contained{out: filepath.Join(dir, "out"), home: filepath.Join(dir, "home"), uid: os.Getuid(), exited: make(chan struct{}),
		marker: fmt.Sprintf("askbridge-contain-probe-%d", time.Now().UnixNano())}
	if c.uid == 0 {
		c.uid = 65534
	}
	run := filepath.Join(dir, "run")
	bin, agent := filepath.Join(dir, "askbridge"), filepath.Join(dir, "agent")
	copyFile(t, askbridgeBin, bin)
	copyFile(t, os.Args[0], agent)
	c.hidden = []string{filepath.Join(run, "askbridge"), filepath.Join(c.home, ".local", "state", "askbridge"),
		filepath.Join(c.home, ".config", "askbridge"), filepath.Join(c.home, "hubs")}
	for i, a := range args {
		if a == flagHub { // --hub's folder, hidden too
			c.hidden = append(c.hidden, filepath.Join(c.home, "flaghub"))
			args[i] = filepath.Join(c.hidden[4], "hub.sock")
		}
	}
	secrets := []string{filepath.Join(c.home, "project", "notes.txt")}
	if !fresh {
		for _, d := range c.hidden {
			secrets = append(secrets, filepath.Join(d, "secret-"+filepath.Base(d)))
		}
	}
	for _, s := range secrets {
		require.NoError(t, os.MkdirAll(filepath.Dir(s), 0o700))
		require.NoError(t, os.WriteFile(s, []byte("x"), 0o600))
	}
	require.NoError(t, os.MkdirAll(run, 0o700))
	require.NoError(t, os.Mkdir(c.out, 0o777))
	for _, p := range []string{run, c.home, c.out} {
		filepath.Walk(p, func(f string, _ os.FileInfo, _ error) error { return os.Lchown(f, c.uid, c.uid) })
	}
	require.NoError(t, os.Chmod(run, 0o700))

	c.cmd = exec.Command(bin, append(args, "--", agent, "-probe")...)
	c.cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + c.home, "XDG_RUNTIME_DIR=" + run, "GORACE=atexit_sleep_ms=0",
		"ASKBRIDGE_HUB=" + filepath.Join(c.hidden[3], "hub.sock"), probeEnv + "=" + c.out, "PROBE_MARKER=" + c.marker,
		"PROBE_HIDDEN=" + strings.Join(c.hidden, ":"), "PROBE_ASKBRIDGE=" + bin,
		"PROBE_PARENTS=" + strings.Join([]string{filepath.Join(c.home, ".config"), filepath.Join(c.home, ".local", "state"), filepath.Join(c.home, ".local")}, ":")}
	if os.Getuid() == 0 {
		c.cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	}
	stdin, err := c.cmd.StdinPipe()
	require.NoError(t, err)
	c.cmd.Stdout = io.Discard
	m, err := pty.Start(c.cmd)
	require.NoError(t, err)
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(c.out, "tty"), []byte(fmt.Sprintf("/dev/pts/%d", n)), 0o644))
	go func() { c.cmd.Wait(); close(c.exited) }()
	go c.readTerminal(m)
	t.Cleanup(func() {
		stdin.Close()
		c.cmd.Process.Kill()
		<-c.exited
		m.Close()
		for _, pid := range markedPids(c.marker) {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	waitFile(t, filepath.Join(c.out, "ready"))
	if !strings.Contains(c.terminal(), "agent contained") && os.Getenv("CI") == "" && !strings.Contains(strings.Join(args, " "), "--contain off") {
		t.Skip("this system does not contain the agent:\n" + c.terminal())
	}
	return c
}

// readTerminal keeps what askbridge writes on its terminal, until it closes.
func (c *contained) readTerminal(m io.Reader) {
	buf := make([]byte, 4096)
	for {
		n, err := m.Read(buf)
		c.mu.Lock()
		c.tty.Write(buf[:n])
		c.mu.Unlock()
		if err != nil {
			return
		}
	}
}

func (c *contained) terminal() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.tty.String()
}

func (c *contained) state() string {
	select {
	case <-c.exited:
		return "exited"
	default:
		return "running"
	}
}

func copyFile(t *testing.T, from, to string) {
	testenv.CopyExecutable(t, from, to)
}

// waitFile waits for the probe to write path and returns what it wrote.
func waitFile(t *testing.T, path string) string {
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if b, err := os.ReadFile(path); err == nil {
			return string(b)
		}
		require.True(t, time.Now().Before(deadline), "the probe never wrote %s", filepath.Base(path))
	}
}

// markedPids are the processes whose command line holds marker.
func markedPids(marker string) []int {
	var out []int
	cmdlines, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range cmdlines {
		b, err := os.ReadFile(p)
		if err != nil || !bytes.Contains(b, []byte(marker)) {
			continue
		}
		if pid, err := strconv.Atoi(filepath.Base(filepath.Dir(p))); err == nil && pid != os.Getpid() {
			out = append(out, pid)
		}
	}
	return out
}

// Where the system refuses (here: /proc not fully visible, so no /proc of
// the container's own may be mounted), --contain on refuses to start the
// agent, with why, and auto runs it uncontained and says so.
func TestContainOnRefusesWhereTheSystemRefuses(t *testing.T) {
	t.Parallel()
	if os.Getuid() != 0 {
		t.Skip("hiding part of /proc takes root")
	}
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Skip("no unshare(1)")
	}
	run := t.TempDir()
	script := `mount -t tmpfs none /proc/sys || exit 9; "$0" --hub off --contain on -- true; echo "on: $?"; "$0" --hub off -- true </dev/null; echo "auto: $?"`
	cmd := exec.Command(unshare, "-m", "sh", "-c", script, askbridgeBin)
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + run, "XDG_RUNTIME_DIR=" + run, "GORACE=atexit_sleep_ms=0"}
	cmd.WaitDelay = 30 * time.Second
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	assert.Contains(t, string(out), `cannot start agent "true": --contain on: cannot contain the agent: mounting a /proc of the container's own`)
	assert.Contains(t, string(out), "on: 1")
	assert.Contains(t, string(out), `level=WARN msg="not contained: anything this agent starts can act as you" reason=`)
}
