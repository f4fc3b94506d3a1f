//go:build unix

// Command relaybench measures askbridge's relay against cat (the agent
// connected directly), against the limit (bench/limitrelay: a process that
// io.Copy's bytes both ways, parsing nothing, the fastest a relay can be)
// and against the relays a user would otherwise put between editor and
// agent. Every contestant gets the same workload, in
// interleaved runs, each in a fresh process: initialize and session/new
// (startup is the time from exec to the initialize result), one prompt turn
// in which the agent streams the notifications as fast as the pipe takes
// them (throughput, agent to editor), as many notifications of the same size
// streamed by the editor to the agent (throughput the other way), then
// prompts one at a time (round trips, less those
// of the direct connection), and the relay's own peak RSS over all of it.
// bench/run.sh runs it.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// contestant is one way of connecting the editor to the agent: relay is the
// command the agent's argv is appended to (none for the direct baseline).
type contestant struct {
	name  string
	relay []string
}

// relayFlags collects -relay NAME=COMMAND flags.
type relayFlags []contestant

func (r *relayFlags) String() string { return fmt.Sprint(len(*r), " relays") }

func (r *relayFlags) Set(v string) error {
	name, command, ok := strings.Cut(v, "=")
	if !ok || name == "" || strings.TrimSpace(command) == "" {
		return fmt.Errorf("want NAME=COMMAND, got %q", v)
	}
	*r = append(*r, contestant{name: name, relay: strings.Fields(command)})
	return nil
}

func main() {
	if len(os.Args) == 3 && os.Args[1] == agentArg {
		if err := runAgent(os.Args[2]); err != nil {
			fmt.Fprintln(os.Stderr, "relaybench agent:", err)
			os.Exit(1)
		}
		return
	}
	var relays relayFlags
	bin := flag.String("askbridge", "bin/askbridge", "the askbridge binary")
	limitBin := flag.String("limitrelay", "bin/limitrelay", "the limit relay's binary (go build ./bench/limitrelay)")
	flag.Var(&relays, "relay", "another relay to measure, as NAME=COMMAND (split at spaces; the agent's argv is appended); repeatable")
	n := flag.Int("n", 200000, "notifications in the throughput turn")
	trips := flag.Int("trips", 10000, "round trips in the latency run")
	runs := flag.Int("runs", 3, "interleaved runs per contestant (the best is kept)")
	limit := flag.Duration("limit", 90*time.Second, "time limit for one contestant's run")
	previous := flag.String("previous", "", "also measure the previous release's binary, as NAME=BINARY (bench/run.sh builds it), against the limit beside askbridge")
	hub := flag.String("hub", "", "also measure askbridge reporting to the running askbridge hub on this socket, against askbridge without one")
	flag.Parse()
	if flag.NArg() > 0 || *n < 1 || *trips < 1 || *runs < 1 {
		fmt.Fprintln(os.Stderr, "relaybench: -n, -trips and -runs must be at least 1, and no arguments follow the flags")
		os.Exit(2)
	}
	all := append([]contestant{
		{name: "cat"},
		{name: limitRow, relay: []string{*limitBin}},
		{name: askbridgeRow, relay: []string{*bin, "--log-level=error", "--hub=off", "--"}},
	}, relays...)
	if name, prev, ok := strings.Cut(*previous, "="); ok && name != "" && prev != "" {
		all = append(all, contestant{name: previousRow + " " + name, relay: []string{prev, "--log-level=error", "--hub=off", "--"}})
	} else if *previous != "" {
		fmt.Fprintln(os.Stderr, "relaybench: -previous wants NAME=BINARY")
		os.Exit(2)
	}
	if *hub != "" {
		all = append(all, contestant{name: hubRow, relay: []string{*bin, "--log-level=error", "--hub=" + *hub, "--"}})
	}
	if err := run(all, *n, *trips, *runs, *limit); err != nil {
		fmt.Fprintln(os.Stderr, "relaybench:", err)
		os.Exit(1)
	}
}

// result is what the runs of one contestant measured, best kept.
type result struct {
	n        int             // notifications per throughput turn
	best     time.Duration   // the fastest throughput turn, agent to editor
	up       time.Duration   // the fastest stream from editor to agent
	lat      []time.Duration // the latency run with the lowest p99
	rssKiB   int64
	privKiB  int64 // the highest private memory (RssAnon) sampled
	startups []time.Duration
	err      error // why a peer has no figures
}

// builtin is how many contestants come first and must succeed: cat, the
// limit and askbridge. The peers after them may fail without ending the
// benchmark.
const builtin = 3

func run(all []contestant, n, trips, runs int, limit time.Duration) error {
	dir, err := os.MkdirTemp("", "relaybench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "updates.jsonl")
	size, err := writeUpdates(file, n)
	if err != nil {
		return err
	}
	upFile := filepath.Join(dir, "uploads.jsonl")
	upSize, err := writeUploads(upFile, n)
	if err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	agent := []string{self, agentArg, file}
	results := make([]result, len(all))
	// Interleaved: each run measures every contestant once, starting with a
	// different one each time, so whatever else the machine is doing falls
	// on all of them alike.
	for r := range runs {
		for k := range all {
			i := (k + r) % len(all)
			c := all[i]
			if results[i].err != nil {
				continue
			}
			err := measure(&results[i], append(slices.Clone(c.relay), agent...), upFile, n, trips, limit)
			if err != nil && i < builtin {
				return fmt.Errorf("%s: %w", c.name, err)
			}
			if err != nil { // a peer that fails is reported, not fatal
				fmt.Fprintf(os.Stderr, "relaybench: %s: %v\n", c.name, err)
				results[i].err = err
			}
		}
	}
	fmt.Printf("relay benchmark: one prompt turn streaming %d session/update notifications of %d bytes from the agent, %d notifications of %d bytes streamed by the editor to the agent, then %d prompt round trips; best of %d interleaved runs\n\n",
		n, size/int64(n), n, upSize/int64(n), trips, runs)
	report(os.Stdout, all, results)
	return nil
}

// measure runs one contestant once: handshake (startup), one streaming
// turn (throughput), the editor's stream (throughput the other way), round
// trips (latency), then its peak RSS and the highest private memory seen.
func measure(res *result, argv []string, upFile string, n, trips int, limit time.Duration) error {
	s, err := startSession(argv, limit)
	if err != nil {
		return err
	}
	stop := make(chan struct{})
	private := s.watchPrivate(stop)
	stopWatching := sync.OnceFunc(func() { close(stop) })
	defer stopWatching()
	d, err := s.throughput(n)
	if err != nil {
		s.close()
		return fmt.Errorf("throughput: %w", err)
	}
	up, err := s.upstream(upFile, n)
	if err != nil {
		s.close()
		return fmt.Errorf("editor to agent: %w", err)
	}
	lat, err := s.latency(trips)
	if err != nil {
		s.close()
		return fmt.Errorf("round trips: %w", err)
	}
	rss := s.peakRSS()
	stopWatching()
	priv := <-private
	if err := s.close(); err != nil {
		return fmt.Errorf("after the runs: %w", err)
	}
	if res.best == 0 || d < res.best {
		res.best = d
	}
	if res.up == 0 || up < res.up {
		res.up = up
	}
	if res.lat == nil || pct(lat, 99) < pct(res.lat, 99) {
		res.lat = lat
	}
	res.n = n
	res.rssKiB = max(res.rssKiB, rss)
	res.privKiB = max(res.privKiB, priv)
	res.startups = append(res.startups, s.startup)
	return nil
}
