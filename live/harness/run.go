//go:build unix

package harness

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/askbridge/askbridge/internal/pty"
)

// DefaultTimeout bounds a whole run: start, every call, shutdown.
const DefaultTimeout = 2 * time.Minute

// Options configure one run.
type Options struct {
	// ModelURL is the fake model's base URL (fakemodel.Server.URL).
	ModelURL string
	// Client answers the agent's requests.
	Client Client
	// Wrap goes before the agent's command line, e.g.
	// {"bin/askbridge", "--", } (see Askbridge). Empty runs the agent directly.
	Wrap []string
	// Record is a JSONL file for every line both ways. Empty: a file named
	// after the test under $ASKBRIDGE_LIVE_RECORD when that is set, else none.
	Record string
	// Timeout bounds the run; zero means DefaultTimeout.
	Timeout time.Duration
	// Env is added last, so it wins.
	Env []string
	// Args go after the agent's own command line (e.g. opencode's --port).
	Args []string
	// TTY runs the command with a terminal of its own (Linux), where the
	// desk shows its pairing code (Run.Terminal).
	TTY bool
}

// FreePort returns a loopback TCP port that was free a moment ago, for an
// agent's HTTP server (opencode --port).
func FreePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// Askbridge wraps an agent in the askbridge binary at bin.
func Askbridge(bin string, flags ...string) []string {
	return append(append([]string{bin}, flags...), "--")
}

// Run is one running agent and the client talking to it.
type Run struct {
	Agent Agent
	Home  string // the agent's HOME and working directory
	Ctx   context.Context

	t      testing.TB
	cmd    *exec.Cmd
	conn   *conn
	rec    *recorder
	stderr string // path of the stderr file
	tty    *Screen
	marker string
	cancel context.CancelFunc
	exited chan struct{}
}

// Start runs agent and registers its end with t.Cleanup: stdin closed, a
// grace period, then SIGTERM and SIGKILL for every process the run started.
func Start(t testing.TB, a Agent, o Options) *Run {
	t.Helper()
	if err := Installed(); err != nil {
		t.Fatal(err)
	}
	if o.Timeout == 0 {
		o.Timeout = DefaultTimeout
	}
	home := t.TempDir()
	env, err := a.Setup(home, o.ModelURL)
	if err != nil {
		t.Fatalf("setting up %s: %v", a.Name, err)
	}
	record := o.Record
	if dir := os.Getenv("ASKBRIDGE_LIVE_RECORD"); record == "" && dir != "" {
		os.MkdirAll(dir, 0o755)
		record = filepath.Join(dir, fileName(t.Name())+".jsonl")
	}
	rec, err := newRecorder(record)
	if err != nil {
		t.Fatal(err)
	}
	argv := append(append(append([]string(nil), o.Wrap...), a.Argv(LiveDir())...), o.Args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = home
	marker := newMarker()
	cmd.Env = append(append(append(hostEnv(), "HOME="+home, "ASKBRIDGE_LIVE_RUN="+marker), env...), o.Env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderrPath := filepath.Join(home, "stderr.log")
	errFile, err := os.Create(stderrPath)
	if err != nil {
		t.Fatal(err)
	}
	defer errFile.Close()
	cmd.Stderr = errFile
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = outW
	var tty *Screen
	if o.TTY {
		term, err := pty.Start(cmd)
		if err != nil {
			t.Fatalf("starting %s on a terminal: %v", strings.Join(argv, " "), err)
		}
		tty = &Screen{}
		go serveTerminal(term, tty)
	} else if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", strings.Join(argv, " "), err)
	}
	outW.Close()
	ctx, cancel := context.WithTimeout(context.Background(), o.Timeout)
	r := &Run{Agent: a, Home: home, Ctx: ctx, t: t, cmd: cmd, rec: rec, stderr: stderrPath, tty: tty,
		marker: marker, cancel: cancel, exited: make(chan struct{}), conn: newConn(o.Client, rec, stdin)}
	go func() { r.conn.read(outR); outR.Close() }()
	go func() { cmd.Wait(); close(r.exited) }()
	go func() {
		// The deadline ends the run the hard way: pending calls then fail
		// with "the agent closed its stdout" instead of hanging.
		<-ctx.Done()
		if ctx.Err() == context.DeadlineExceeded {
			t.Logf("%s: the run passed its %s deadline; killing it", a.Name, o.Timeout)
			r.killAll(syscall.SIGKILL)
		}
	}()
	t.Cleanup(func() { r.stop(stdin) })
	return r
}

func (r *Run) stop(stdin interface{ Close() error }) {
	stdin.Close()
	closed := time.Now()
	select {
	case <-r.exited:
		r.t.Logf("%s exited %s after its stdin closed", r.Agent.Name, time.Since(closed).Round(time.Millisecond))
	case <-time.After(5 * time.Second):
		r.t.Logf("%s did not exit within 5s of its stdin closing; SIGTERM", r.Agent.Name)
		r.killAll(syscall.SIGTERM)
		select {
		case <-r.exited:
		case <-time.After(3 * time.Second):
		}
	}
	// Whatever is left, the agent's own children included (askbridge puts
	// the agent in a process group of its own), goes now.
	r.killAll(syscall.SIGKILL)
	<-r.exited
	r.cancel()
	r.rec.close()
	r.checkContained()
	if r.t.Failed() {
		r.t.Logf("stderr of %s (%s):\n%s", r.Agent.Name, r.stderr, tail(r.Stderr(), 8000))
	}
}

// killAll signals the run's process group, then every process carrying the
// run's marker in its environment: those that left the group or were
// reparented.
func (r *Run) killAll(sig syscall.Signal) {
	syscall.Kill(-r.cmd.Process.Pid, sig)
	for _, pid := range markedPIDs(r.marker) {
		syscall.Kill(pid, sig)
	}
}

func markedPIDs(marker string) []int {
	want := []byte("ASKBRIDGE_LIVE_RUN=" + marker + "\x00")
	paths, _ := filepath.Glob("/proc/[0-9]*/environ")
	var pids []int
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil || !strings.Contains(string(b), string(want)) {
			continue
		}
		var pid int
		fmt.Sscanf(filepath.Base(filepath.Dir(p)), "%d", &pid)
		if pid > 0 && pid != os.Getpid() {
			pids = append(pids, pid)
		}
	}
	return pids
}

// Call sends a request and waits for the answer, within the run's deadline.
func (r *Run) Call(method string, params any) (json.RawMessage, error) {
	return r.conn.Call(r.Ctx, method, params)
}

// Notify sends a notification, e.g. session/cancel.
func (r *Run) Notify(method string, params any) error { return r.conn.Notify(method, params) }

// Lines returns every line recorded so far, both ways.
func (r *Run) Lines() []Line { return r.rec.all() }

// Stderr returns what the agent (and askbridge) wrote to stderr so far.
func (r *Run) Stderr() string {
	b, _ := os.ReadFile(r.stderr)
	return string(b)
}

// Exited is closed when the top process has exited.
func (r *Run) Exited() <-chan struct{} { return r.exited }

func newMarker() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

func fileName(testName string) string { return unsafeName.ReplaceAllString(testName, "_") }

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// Terminal is what the run showed on its terminal so far (Options.TTY).
func (r *Run) Terminal() string {
	if r.tty == nil {
		return ""
	}
	return r.tty.String()
}

// Screen is a terminal's output, read while it is written.
type Screen struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *Screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *Screen) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
