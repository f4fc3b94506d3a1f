package hub

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/testkit/testenv"
)

// Bench sizes: the 20 askbridges with 50 pending sets each.
const (
	benchAskbridges = 20
	benchSets       = 50
)

// BenchmarkHub20x50 measures the figures in one process: 20
// askbridges (Report, each its own board) on one hub over its socket. In
// each of 50 rounds every askbridge asks a set at once, and the time from
// Open at the askbridge to the set being on the hub's board (its event
// stream) is taken; with all 1000 sets pending, the heap of the process
// (the hub and the 20 reporters); then each set is answered on the hub's
// board and the time until the askbridge's ticket is done is taken.
// Run with: go test -run '^$' -bench Hub20x50 -benchtime 1x ./route/hub
func BenchmarkHub20x50(b *testing.B) {
	testenv.SkipUnderWine(b, testenv.NoUnixSockets)
	dir, err := os.MkdirTemp("", "abhubb")
	if err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(dir)
	var asked, answered []time.Duration
	var heap uint64
	i := 0
	for b.Loop() {
		a, h, mem := benchRound(b, filepath.Join(dir, fmt.Sprint(i), "hub.sock"))
		asked, answered, heap = append(asked, a...), append(answered, h...), max(heap, mem)
		i++
	}
	p := func(d []time.Duration, q float64) float64 {
		slices.Sort(d)
		return float64(d[int(q*float64(len(d)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(p(asked, 0.5), "asked-p50-ms")
	b.ReportMetric(p(asked, 0.99), "asked-p99-ms")
	b.ReportMetric(p(answered, 0.5), "answer-p50-ms")
	b.ReportMetric(p(answered, 0.99), "answer-p99-ms")
	b.ReportMetric(float64(heap)/(1<<20), "heap-MiB")
	b.Logf("%d askbridges × %d sets: asked→on the hub p50 %.2f ms p99 %.2f ms; answer at the hub→askbridge p50 %.2f ms p99 %.2f ms; heap with every set pending %.1f MiB (hub and reporters)",
		benchAskbridges, benchSets, p(asked, 0.5), p(asked, 0.99), p(answered, 0.5), p(answered, 0.99), float64(heap)/(1<<20))
}

// benchRound runs the scenario once on a fresh hub at path.
func benchRound(b *testing.B, path string) (asked, answered []time.Duration, heap uint64) {
	ln, err := Listen(path)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	hb := permission.NewBoard()
	h := New(hb, nil)
	go h.Serve(ctx, ln)
	arr := watchArrivals(ctx, hb)
	boards := connectReporters(ctx, b, h, path)

	tickets, opened := askRounds(b, boards, arr)
	for q, at := range opened {
		asked = append(asked, arr.seen[q].Sub(at))
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	heap = ms.HeapAlloc

	for q, tk := range tickets {
		begin := time.Now()
		if err := hb.Settle(arr.onHub[q], permission.Result{Answers: []permission.Answered{{Question: benchQuestion(q), Answer: permission.Answer{Labels: []string{"a"}}, Path: "questions[0]"}}}, permission.ByEditor()); err != nil {
			b.Fatal(err)
		}
		select {
		case <-tk.Done():
		case <-time.After(10 * time.Second):
			b.Fatal("an answer at the hub did not reach its askbridge")
		}
		answered = append(answered, time.Since(begin))
	}
	return asked, answered, heap
}

// arrivals is when each set reached the hub's board, by its question.
type arrivals struct {
	mu      sync.Mutex
	seen    map[string]time.Time
	onHub   map[string]string // question -> the hub's set id
	arrived chan struct{}     // one per set
}

// watchArrivals follows hb's events until ctx ends.
func watchArrivals(ctx context.Context, hb *permission.Board) *arrivals {
	a := &arrivals{seen: map[string]time.Time{}, onHub: map[string]string{}, arrived: make(chan struct{}, benchAskbridges*benchSets)}
	events := hb.Subscribe(ctx)
	go func() {
		for ev := range events {
			if ev.Type != permission.EventAsked {
				continue
			}
			now := time.Now()
			a.mu.Lock()
			q := ev.Pending.Questions[0].Question
			a.seen[q], a.onHub[q] = now, ev.Pending.ID
			a.mu.Unlock()
			a.arrived <- struct{}{}
		}
	}()
	return a
}

// connectReporters has benchAskbridges askbridges, each its own board,
// report to the hub at path, and waits for them all.
func connectReporters(ctx context.Context, b *testing.B, h *Hub, path string) []*permission.Board {
	boards := make([]*permission.Board, benchAskbridges)
	for i := range boards {
		boards[i] = permission.NewBoard()
		Report(ctx, boards[i], path, Instance{Agent: "bench", PID: i + 1, CWD: fmt.Sprintf("/src/%d", i)}, nil)
	}
	for deadline := time.Now().Add(10 * time.Second); len(h.Instances()) < benchAskbridges; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			b.Fatalf("%d askbridges connected, want %d", len(h.Instances()), benchAskbridges)
		}
	}
	return boards
}

// askRounds has every askbridge ask a set at once, benchSets times, each
// round once the last one is all on the hub: the tickets and when each
// was opened, by question.
func askRounds(b *testing.B, boards []*permission.Board, arr *arrivals) (map[string]*permission.Ticket, map[string]time.Time) {
	tickets := map[string]*permission.Ticket{}
	opened := map[string]time.Time{}
	for round := range benchSets {
		var wg sync.WaitGroup
		var tmu sync.Mutex
		for i, board := range boards {
			wg.Go(func() {
				q := fmt.Sprintf("Set %d of askbridge %d?", round, i)
				at := time.Now()
				tk := ask(board, "sess-1", q)
				tmu.Lock()
				tickets[q], opened[q] = tk, at
				tmu.Unlock()
			})
		}
		wg.Wait()
		for range benchAskbridges {
			select {
			case <-arr.arrived:
			case <-time.After(10 * time.Second):
				b.Fatalf("round %d: a set did not reach the hub", round)
			}
		}
	}
	return tickets, opened
}

// benchQuestion is the question ask puts up.
func benchQuestion(text string) permission.Question {
	return permission.Question{Question: text, Header: "H", Options: []permission.Option{{Label: "a"}, {Label: "b"}}}
}
