//go:build unix

package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/askbridge/askbridge/internal/hub"
)

// hubProc is `askbridge hub`, run as a user runs it, and its page.
type hubProc struct {
	pid  int
	base string // http://localhost:PORT/
}

// startHub starts `askbridge hub` outside this process's tree, as
// bench/hubbench does (a shell starts it in the background and exits):
// the askbridge this process starts reports to it, and a hub inside an
// askbridge's tree would be no hub to it. Its socket is sock; its state
// and log are in dir.
func startHub(ctx context.Context, bin, dir, sock string) (*hubProc, error) {
	logPath := filepath.Join(dir, "hub.log")
	cmd := exec.Command("sh", "-c", `"$0" hub --listen 127.0.0.1:0 --log-level warn </dev/null >/dev/null 2>"$1" & echo $!`, bin, logPath)
	cmd.Env = append(os.Environ(), hub.SocketEnv+"="+sock, "XDG_STATE_HOME="+filepath.Join(dir, "hub-state"))
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("starting the hub: %w", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		return nil, fmt.Errorf("starting the hub: no pid in %q", out)
	}
	h := &hubProc{pid: pid}
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline) && ctx.Err() == nil; time.Sleep(20 * time.Millisecond) {
		b, _ := os.ReadFile(logPath)
		for _, line := range strings.Split(string(b), "\n") {
			if u, ok := strings.CutPrefix(line, "askbridge: hub at "); ok && strings.HasPrefix(u, "http://localhost:") {
				h.base = strings.TrimSpace(u)
				return h, nil
			}
		}
	}
	b, _ := os.ReadFile(logPath)
	h.stop()
	return nil, fmt.Errorf("the hub did not print its address within 20s; it said:\n%s", b)
}

// pair pairs a browser with a passkey with the hub's page. The code is
// the one `askbridge hub pair` asks the hub's socket for (hub.NewCode),
// as a user does who does not read the hub's terminal; the page is then
// paired over HTTP exactly as a browser pairs.
func (h *hubProc) pair(ctx context.Context, sock string) (*page, error) {
	code, err := hub.NewCode(ctx, sock)
	if err != nil {
		return nil, fmt.Errorf("a pairing code: %w", err)
	}
	return pairPage(ctx, h.base, code.Code)
}

// waitInstances polls the page's GET /instance until n askbridges report.
func waitInstances(ctx context.Context, p *page, n int) error {
	var list []map[string]any
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		list = nil
		if err := p.do(ctx, http.MethodGet, "/instance", nil, &list); err != nil {
			return err
		}
		if len(list) == n {
			return nil
		}
	}
	return fmt.Errorf("%d askbridges report to the hub, want %d", len(list), n)
}

// stop ends the hub: SIGTERM, then SIGKILL after 5s. It is not this
// process's child: it is gone when its /proc entry is, or shows a zombie
// its new parent has yet to reap.
func (h *hubProc) stop() {
	syscall.Kill(h.pid, syscall.SIGTERM)
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if !h.alive() {
			return
		}
	}
	syscall.Kill(h.pid, syscall.SIGKILL)
}

func (h *hubProc) alive() bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", h.pid))
	if err != nil {
		return syscall.Kill(h.pid, 0) == nil // no /proc (macOS): ask the kernel
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return !strings.HasPrefix(rest, "Z")
}
