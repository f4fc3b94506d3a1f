package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// hook runs a shell command for every event, the Event as JSON on stdin.
type hook struct {
	cmd string
	log *slog.Logger
}

func (h *hook) name() string     { return "on-question hook" }
func (h *hook) wants(Event) bool { return true }
func (h *hook) env(e Event) []string {
	return append(os.Environ(),
		"ASKBRIDGE_EVENT="+e.Event,
		"ASKBRIDGE_QUESTION_ID="+e.ID,
		"ASKBRIDGE_SESSION="+e.Session,
		"ASKBRIDGE_TITLE="+e.Title(),
		"ASKBRIDGE_DESK_URL="+e.DeskURL,
	)
}

// deliver runs the command in a process group of its own, so that when ctx
// ends (the timeout, or askbridge closing) the whole group is killed, not
// only the shell. Its output never reaches askbridge's stdout, which is the
// protocol: stdout is logged at debug level, stderr with a failure.
func (h *hook) deliver(ctx context.Context, e Event) error {
	doc, err := json.Marshal(e)
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", h.cmd)
	cmd.Stdin = bytes.NewReader(append(doc, '\n'))
	cmd.Env = h.env(e)
	var stdout, stderr tail
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	// A grandchild that left the group and kept the output open must not
	// hold Wait past the kill.
	cmd.WaitDelay = time.Second
	err = cmd.Run()
	if out := strings.TrimSpace(stdout.String()); out != "" {
		h.log.Debug("notify: on-question hook output", "event", e.Event, "id", e.ID, "stdout", out)
	}
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return fmt.Errorf("%w; stderr: %s", err, msg)
		}
		return err
	}
	return nil
}

// tail keeps the last tailBytes written to it: enough of a hook's output to
// log, never all of a chatty one.
type tail struct{ b []byte }

const tailBytes = 2048

func (t *tail) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > tailBytes {
		t.b = t.b[len(t.b)-tailBytes:]
	}
	return len(p), nil
}

func (t *tail) String() string { return string(t.b) }
