//go:build unix

package benchhub

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/askbridge/askbridge/route/hub"
)

// Hub is `askbridge hub`'s process and its page.
type Hub struct {
	PID  int
	Page string // http://localhost:PORT/
}

// Start starts bin's hub with its socket at sock, its state in state and
// its log in dir/hub.log, and waits until it says its page's address. A
// shell starts it in the background and exits, so the hub is nobody's
// child here: a hub inside the tree of the askbridges that report to it
// is refused (a process an agent started may not stand in for it).
func Start(ctx context.Context, bin, dir, sock, state string) (*Hub, error) {
	logPath := filepath.Join(dir, "hub.log")
	cmd := exec.Command("sh", "-c", `"$0" hub --listen 127.0.0.1:0 --log-level warn </dev/null >/dev/null 2>"$1" & echo $!`, bin, logPath)
	cmd.Env = append(os.Environ(), hub.SocketEnv+"="+sock, "XDG_STATE_HOME="+state)
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("starting the hub: %w", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		return nil, fmt.Errorf("starting the hub: no pid in %q", out)
	}
	h := &Hub{PID: pid}
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline) && ctx.Err() == nil; time.Sleep(20 * time.Millisecond) {
		b, _ := os.ReadFile(logPath)
		for _, line := range strings.Split(string(b), "\n") {
			if u, ok := strings.CutPrefix(line, "askbridge: hub at "); ok && strings.HasPrefix(u, "http://localhost:") {
				h.Page = strings.TrimSpace(u)
				return h, nil
			}
		}
	}
	b, _ := os.ReadFile(logPath)
	h.Stop()
	return nil, fmt.Errorf("the hub did not print its address within 20s; it said:\n%s", b)
}

// Stop ends the hub: SIGTERM, then SIGKILL after 5s. It is not this
// process's child, so it is gone when its /proc entry is, or shows it a
// zombie its new parent has yet to reap.
func (h *Hub) Stop() {
	syscall.Kill(h.PID, syscall.SIGTERM)
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if !h.Alive() {
			return
		}
	}
	syscall.Kill(h.PID, syscall.SIGKILL)
}

// Alive says whether the hub runs yet.
func (h *Hub) Alive() bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", h.PID))
	if err != nil {
		return syscall.Kill(h.PID, 0) == nil // no /proc (macOS): ask the kernel
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return !strings.HasPrefix(rest, "Z")
}
