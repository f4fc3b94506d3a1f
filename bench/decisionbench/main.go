//go:build unix

// Command decisionbench measures a decision made away from the editor,
// end to end on loopback (issue 49, "Measured"):
//
//   - from a paired page's first request for a decision until the agent
//     has the answer, over a real `askbridge hub` and a real askbridge
//     running a scripted agent (this program, re-run as `decisionbench
//     agent N`), half of them tool approvals with a software passkey
//     (target: p95 under 100 ms);
//   - from a question asked until its Web Push request reaches the test
//     push service (route/webpush/webpushtest), with the hub's parts
//     in this process (target: p95 under 100 ms).
//
// bench/run.sh runs it.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"
)

const targetP95 = 100 * time.Millisecond

func main() {
	if len(os.Args) == 3 && os.Args[1] == agentArg {
		n, err := strconv.Atoi(os.Args[2])
		if err == nil {
			err = runAgent(n)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "decisionbench agent:", err)
			os.Exit(1)
		}
		return
	}
	bin := flag.String("askbridge", "bin/askbridge", "the askbridge binary")
	n := flag.Int("n", 100, "decisions made on the page (even ones approvals, odd ones questions)")
	pushes := flag.Int("pushes", 100, "questions pushed")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if err := run(ctx, *bin, *n, *pushes); err != nil {
		fmt.Fprintln(os.Stderr, "decisionbench:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, bin string, n, pushes int) error {
	bin, err := filepath.Abs(bin)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "abdb")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	// The hub's key, which askbridge trusts, and every state file, here.
	os.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	os.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	times, err := measureDecisions(ctx, bin, dir, n)
	if err != nil {
		return err
	}
	fmt.Printf("a decision on the paired page until the agent has it, through askbridge hub and askbridge on loopback, %d decisions:\n", n)
	line("all", times.all)
	line("approvals, with the passkey", times.approvals)
	line("questions", times.questions)
	fmt.Printf("  %-36s p50 %6.1f ms   p95 %6.1f ms\n", "(of which the page's requests)", ms(pct(times.page, 0.5)), ms(pct(times.page, 0.95)))
	fmt.Println("  counted: from the page's first request (an approval: POST …/presence, the software passkey's signature, POST …/reply")
	fmt.Println("  with the assertion; a question: POST …/reply) until the agent read the answer off its stdin (wall clock, both")
	fmt.Println("  processes); not counted: the set reaching the page (the bench polls GET /question every 2 ms)")

	took, err := measurePushes(ctx, dir, pushes)
	if err != nil {
		return err
	}
	fmt.Printf("a question asked until its Web Push request reaches the test push service (the hub's parts in process), %d questions:\n", pushes)
	line("pushes", took)
	return nil
}

// decisionTimes are the latencies of the page's decisions, by kind, and
// the page's own requests alone.
type decisionTimes struct {
	all, approvals, questions, page []time.Duration
}

// measureDecisions starts the hub and askbridge, pairs the page, and has
// it decide each of the agent's n decisions as it appears.
func measureDecisions(ctx context.Context, bin, dir string, n int) (decisionTimes, error) {
	var t decisionTimes
	self, err := os.Executable()
	if err != nil {
		return t, err
	}
	sock := filepath.Join(dir, "hub.sock")
	h, err := startHub(ctx, bin, dir, sock)
	if err != nil {
		return t, err
	}
	defer h.Stop()
	p, err := h.pair(ctx, sock)
	if err != nil {
		return t, err
	}
	work := filepath.Join(dir, "project")
	if err := os.Mkdir(work, 0o755); err != nil {
		return t, err
	}
	b, err := startBridge(bin, work, sock, self, n)
	if err != nil {
		return t, err
	}
	defer b.stop()
	session, err := b.open(ctx, work)
	if err == nil {
		err = waitInstances(ctx, p, 1)
	}
	if err == nil {
		err = b.prompt(session)
	}
	if err != nil {
		return t, err
	}
	done := map[string]bool{}
	for i := range n {
		s, err := p.next(ctx, done)
		if err != nil {
			return t, err
		}
		if want := map[bool]string{true: "approval", false: "question"}[i%2 == 0]; s.Kind != want {
			return t, fmt.Errorf("decision %d is a %s on the page, want a %s", i, s.Kind, want)
		}
		done[s.ID] = true
		start := time.Now()
		if err := p.decide(ctx, s); err != nil {
			return t, fmt.Errorf("decision %d: %w", i, err)
		}
		t.page = append(t.page, time.Since(start))
		at, err := b.arrival(i)
		if err != nil {
			return t, err
		}
		d := at.Sub(start)
		if d <= 0 {
			return t, fmt.Errorf("decision %d: the agent had its answer %s before the page asked: the clocks disagree", i, -d)
		}
		t.all = append(t.all, d)
		if s.Kind == "approval" {
			t.approvals = append(t.approvals, d)
		} else {
			t.questions = append(t.questions, d)
		}
	}
	_, err = b.response(ctx, 3, 20*time.Second) // the turn ends
	return t, err
}

// line prints p50 and p95 of d with the target beside them.
func line(what string, d []time.Duration) {
	verdict := "met"
	if pct(d, 0.95) >= targetP95 {
		verdict = "MISSED"
	}
	fmt.Printf("  %-36s p50 %6.1f ms   p95 %6.1f ms   (target p95 under %d ms: %s; n=%d)\n",
		what, ms(pct(d, 0.5)), ms(pct(d, 0.95)), targetP95.Milliseconds(), verdict, len(d))
}

// pct is the nearest-rank q-quantile of d.
func pct(d []time.Duration, q float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	i := int(q*float64(len(s))+0.999999) - 1
	return s[max(0, min(i, len(s)-1))]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
