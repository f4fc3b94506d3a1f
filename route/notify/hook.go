package notify

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Bounds of the --on-question hook.
const (
	// HookRunning is how many hooks run at once; later events wait.
	HookRunning = 4
	// HookQueued is how many events may wait for a hook; one more is
	// dropped, with one log line until the queue has drained.
	HookQueued = 64
	// HookEnvMax bounds each ASKBRIDGE_* value in the hook's environment,
	// in bytes; a longer one is cut and ends in hookCut. The JSON on stdin
	// is always whole.
	HookEnvMax = 4096
)

// hookCut ends an environment value that was cut to HookEnvMax.
const hookCut = "…[cut]"

// outputGrace is how long the hook's output is read after it exited and
// its tree was ended: only a process that left the tree (setsid) holds the
// pipes longer, and askbridge does not wait for it.
const outputGrace = time.Second

// hook runs a shell command for every event, the Event as JSON on stdin:
// sh -c on Unix (hook_unix.go), cmd.exe /c on Windows (hook_windows.go).
type hook struct {
	cmd string
	log *slog.Logger
}

// procTree is the processes of one hook run, the shell and whatever it
// started: a process group on Unix, a Job Object on Windows. startTree
// (per OS) starts a command as one.
type procTree interface {
	// end kills every process left in the tree. It may be called more
	// than once, and after the shell exited.
	end()
}

func (h *hook) name() string                  { return "on-question hook" }
func (h *hook) wants(Event) bool              { return true }
func (h *hook) limits() (running, queued int) { return HookRunning, HookQueued }

func (h *hook) env(e Event) []string {
	return append(os.Environ(),
		"ASKBRIDGE_EVENT="+envValue(e.Event),
		"ASKBRIDGE_QUESTION_ID="+envValue(e.ID),
		"ASKBRIDGE_SESSION="+envValue(e.Session),
		"ASKBRIDGE_TITLE="+envValue(e.Title()),
		"ASKBRIDGE_DESK_URL="+envValue(e.DeskURL),
	)
}

// envValue makes agent text fit for an environment: no NUL byte, which no
// environment can hold, and at most HookEnvMax bytes, cut at a character,
// which keeps the whole environment far below the OS's limits. Either
// would otherwise keep the hook from starting at all.
func envValue(s string) string {
	s = strings.ReplaceAll(s, "\x00", "")
	if len(s) <= HookEnvMax {
		return s
	}
	cut := HookEnvMax - len(hookCut)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + hookCut
}

// deliver runs the command in a tree of its own and ends the tree when the
// shell exits, when ctx ends (the timeout, or askbridge closing), whichever
// comes first: nothing the hook started outlives it. Its output never
// reaches askbridge's stdout, which is the protocol: stdout is logged at
// debug level, stderr with a failure.
func (h *hook) deliver(ctx context.Context, e Event) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	doc, err := json.Marshal(e)
	if err != nil {
		return err
	}
	cmd := shellCommand(h.cmd)
	cmd.Env = h.env(e)
	stdout, stderr, err := runTree(ctx, cmd, append(doc, '\n'))
	if out := strings.TrimSpace(stdout); out != "" {
		h.log.Debug("notify: on-question hook output", "event", e.Event, "id", e.ID, "stdout", out)
	}
	if err != nil {
		if msg := strings.TrimSpace(stderr); msg != "" {
			return fmt.Errorf("%w; stderr: %s", err, msg)
		}
		return err
	}
	return nil
}

// runTree runs cmd with stdin on its standard input until it exits or ctx
// ends, then ends its tree. The pipes are askbridge's own files rather than
// exec's copying goroutines, so that the wait ends with the shell: a
// background child that keeps stdout open does not hold it.
func runTree(ctx context.Context, cmd *exec.Cmd, stdin []byte) (stdout, stderr string, err error) {
	var files [6]*os.File // in r, in w, out r, out w, err r, err w
	for i := 0; i < len(files); i += 2 {
		if files[i], files[i+1], err = os.Pipe(); err != nil {
			for _, f := range files[:i] {
				f.Close()
			}
			return "", "", err
		}
	}
	inR, inW, outR, outW, errR, errW := files[0], files[1], files[2], files[3], files[4], files[5]
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	tree, err := startTree(cmd)
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return "", "", err
	}
	go func() {
		inW.Write(stdin) // a hook need not read it: EPIPE once it is gone
		inW.Close()
	}()
	var out, errOut tail
	copied := make(chan struct{}, 2)
	for _, c := range []struct {
		r *os.File
		t *tail
	}{{outR, &out}, {errR, &errOut}} {
		go func() {
			io.Copy(c.t, c.r)
			c.r.Close()
			copied <- struct{}{}
		}()
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err = <-exited:
	case <-ctx.Done():
		tree.end()
		err = <-exited
	}
	tree.end() // what it left running in the background ends with it
	// Only a process that left the tree can still hold stdin unread: the
	// write gives up on it.
	defer inW.Close()
	grace := time.NewTimer(outputGrace)
	defer grace.Stop()
	for range 2 {
		select {
		case <-copied:
		case <-grace.C:
			outR.Close() // ends the reads
			errR.Close()
			return out.String(), errOut.String(), err
		}
	}
	return out.String(), errOut.String(), err
}

// tail keeps the last tailBytes written to it: enough of a hook's output to
// log, never all of a chatty one.
type tail struct {
	mu sync.Mutex
	b  []byte
}

const tailBytes = 2048

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > tailBytes {
		t.b = t.b[len(t.b)-tailBytes:]
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}
