//go:build unix

// Command hubbench measures `askbridge hub` as its own process, as a user
// runs it: 20 askbridges (reporting through the hub's own client code)
// with 50 pending sets each, then the hub's peak RSS (target: under 60
// MiB). With -relaybench it then runs the relay benchmark with -hub, so
// askbridge's relay throughput with this hub connected is measured against
// its throughput without one (target: within 5%). bench/run.sh runs it.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/askbridge/askbridge/bench/internal/benchhub"
	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route/desk"
	"github.com/askbridge/askbridge/route/hub"
)

const (
	askbridges = 20
	sets       = 50
	maxRSSMiB  = 60
)

func main() {
	bin := flag.String("askbridge", "bin/askbridge", "the askbridge binary")
	relaybench := flag.String("relaybench", "", "a relaybench command (split at spaces) to run with -hub once the hub holds every set")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := run(ctx, *bin, strings.Fields(*relaybench)); err != nil {
		fmt.Fprintln(os.Stderr, "hubbench:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, bin string, relaybench []string) error {
	dir, err := os.MkdirTemp("", "abhb")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	sock := filepath.Join(dir, "hub.sock")
	h, err := startHub(ctx, bin, dir, sock)
	if err != nil {
		return err
	}
	defer h.Stop()

	boards := make([]*permission.Board, askbridges)
	for i := range boards {
		boards[i] = permission.NewBoard()
		hub.Report(ctx, boards[i], sock, hub.Instance{Agent: "hubbench", PID: 100000 + i, CWD: fmt.Sprintf("/src/project-%d", i)}, nil)
	}
	start := time.Now()
	for round := range sets {
		for i, b := range boards {
			b.Open(permission.Request{SessionID: "sess-1", Round: round + 1, Questions: []permission.Question{{
				Question: fmt.Sprintf("Set %d of askbridge %d: which database?", round, i), Header: "Database",
				Options: []permission.Option{{Label: "Postgres", Description: "relational"}, {Label: "SQLite", Description: "embedded"}},
			}}})
		}
	}
	if err := h.waitPending(ctx, askbridges*sets); err != nil {
		return err
	}
	rss, peak, err := h.memory()
	if err != nil {
		return err
	}
	verdict := "met"
	if peak > maxRSSMiB*1024 {
		verdict = "MISSED"
	}
	fmt.Printf("hub as its own process: %d askbridges × %d pending sets on it %.0f ms after the first was asked; RSS %.1f MiB, peak %.1f MiB (target under %d MiB: %s)\n",
		askbridges, sets, float64(time.Since(start).Microseconds())/1000, float64(rss)/1024, float64(peak)/1024, maxRSSMiB, verdict)
	if len(relaybench) == 0 {
		return nil
	}
	cmd := exec.CommandContext(ctx, relaybench[0], append(relaybench[1:], "-hub", sock)...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	return cmd.Run()
}

// hubProc is the hub's process and its page.
type hubProc struct {
	*benchhub.Hub
	http *http.Client // paired with the hub's page
}

// startHub starts `askbridge hub` as a user does, outside this process's
// tree: a shell starts it in the background and exits, so the hub is
// nobody's child here. A hub inside the tree of the askbridges that
// report to it is refused (only the hub may answer, and a process an
// agent started may not stand in for it), and this process reports as 20
// askbridges. The reporters trust the hub's key from its config folder,
// which this process and the relay benchmark's askbridges share.
func startHub(ctx context.Context, bin, dir, sock string) (*hubProc, error) {
	config := filepath.Join(dir, "config")
	if err := os.Setenv("XDG_CONFIG_HOME", config); err != nil {
		return nil, err
	}
	b, err := benchhub.Start(ctx, bin, dir, sock, filepath.Join(dir, "state"))
	if err != nil {
		return nil, err
	}
	h := &hubProc{Hub: b}
	// Paired as the user would: a code from `askbridge hub pair`'s socket
	// request, traded at the page.
	code, err := hub.NewCode(ctx, sock)
	if err == nil {
		h.http, err = desk.Pair(ctx, h.Page, code.Code, false)
	}
	if err != nil {
		h.Stop()
		return nil, err
	}
	return h, nil
}

// waitPending polls the hub's GET /question until it lists n sets.
func (h *hubProc) waitPending(ctx context.Context, n int) error {
	u := h.Page + "question"
	var got int
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		resp, err := h.http.Do(req)
		if err != nil {
			continue
		}
		var list []json.RawMessage
		err = json.NewDecoder(resp.Body).Decode(&list)
		resp.Body.Close()
		if got = len(list); err == nil && got == n {
			return nil
		}
	}
	return fmt.Errorf("the hub's page lists %d pending sets, want %d", got, n)
}

// memory reads the hub's RSS and peak RSS, in KiB.
func (h *hubProc) memory() (rss, peak int64, err error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", h.PID))
	if err != nil {
		return 0, 0, fmt.Errorf("the hub's memory (Linux /proc): %w", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			rss, _ = strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		}
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			peak, _ = strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		}
	}
	return rss, peak, nil
}
