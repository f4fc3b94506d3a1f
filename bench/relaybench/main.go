// Command relaybench measures askbridge's relay against cat: throughput of
// session/update notifications, added round-trip latency, and peak RSS. It
// prints a table; bench/run.sh runs it.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

func main() {
	if os.Getenv("RELAYBENCH_ECHO") == "1" {
		echoAgent()
		return
	}
	bin := flag.String("askbridge", "bin/askbridge", "the askbridge binary")
	n := flag.Int("n", 200000, "notifications in the throughput run")
	trips := flag.Int("trips", 10000, "round trips in the latency run")
	runs := flag.Int("runs", 3, "throughput runs per contestant (the best is kept)")
	flag.Parse()
	if err := run(*bin, *n, *trips, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "relaybench:", err)
		os.Exit(1)
	}
}

func run(bin string, n, trips, runs int) error {
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
	var catBest, abBest time.Duration
	var rssKiB int64
	for range runs {
		// The agent writes the updates, then waits for its stdin to close,
		// as an agent does; the baseline is the same command without askbridge.
		agent := []string{"sh", "-c", `cat "$0"; cat >/dev/null`, file}
		d, _, err := throughput(exec.Command(agent[0], agent[1:]...), n)
		if err != nil {
			return fmt.Errorf("cat: %w", err)
		}
		catBest = best(catBest, d)
		d, rss, err := throughput(exec.Command(bin, append([]string{"--log-level=error", "--"}, agent...)...), n)
		if err != nil {
			return fmt.Errorf("askbridge: %w", err)
		}
		abBest = best(abBest, d)
		rssKiB = max(rssKiB, rss)
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	// Latency is measured runs times, direct and through askbridge in turn,
	// keeping each side's run with the lowest p99: the figure least disturbed
	// by whatever else the machine is doing.
	var direct, via []time.Duration
	for range runs {
		d, err := latency(exec.Command(self), trips)
		if err != nil {
			return fmt.Errorf("direct round trips: %w", err)
		}
		if direct == nil || pct(d, 99) < pct(direct, 99) {
			direct = d
		}
		v, err := latency(exec.Command(bin, "--log-level=error", "--", self), trips)
		if err != nil {
			return fmt.Errorf("round trips through askbridge: %w", err)
		}
		if via == nil || pct(v, 99) < pct(via, 99) {
			via = v
		}
	}
	catRate := float64(n) / catBest.Seconds()
	abRate := float64(n) / abBest.Seconds()
	fmt.Printf("relay benchmark: %d session/update notifications of %d bytes, %d round trips; best of %d runs\n\n", n, size/int64(n), trips, runs)
	fmt.Printf("| measure | cat | askbridge | target |\n|---|---|---|---|\n")
	fmt.Printf("| throughput (msg/s) | %.0f | %.0f | |\n", catRate, abRate)
	fmt.Printf("| throughput ratio to cat | 1.00 | %.2f | >= 0.25 |\n", abRate/catRate)
	fmt.Printf("| round trip p50 | %s | %s (+%s) | |\n", us(pct(direct, 50)), us(pct(via, 50)), us(pct(via, 50)-pct(direct, 50)))
	fmt.Printf("| round trip p99 | %s | %s (+%s) | added <= 200µs |\n", us(pct(direct, 99)), us(pct(via, 99)), us(pct(via, 99)-pct(direct, 99)))
	fmt.Printf("| peak RSS of askbridge | | %.1f MiB | <= 30 MiB |\n", float64(rssKiB)/1024)
	return nil
}

func best(cur, d time.Duration) time.Duration {
	if cur == 0 || d < cur {
		return d
	}
	return cur
}

// writeUpdates writes n agent_message_chunk notifications of about 1 KiB.
func writeUpdates(path string, n int) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	w := bufio.NewWriter(f)
	text := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 20)
	for i := range n {
		fmt.Fprintf(w, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_0123456789","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"%d %s"}}}}`+"\n", i, text)
	}
	if err := w.Flush(); err != nil {
		return 0, err
	}
	st, err := f.Stat()
	f.Close()
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}

// throughput runs cmd, reads its stdout until n lines came, and returns the
// time taken and the process's peak RSS in KiB.
func throughput(cmd *exec.Cmd, n int) (time.Duration, int64, error) {
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return 0, 0, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 0, 0, err
	}
	cmd.Stderr = os.Stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, 0, err
	}
	r := bufio.NewReaderSize(out, 1<<20)
	lines := 0
	for lines < n {
		b, err := r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			return 0, 0, fmt.Errorf("after %d lines: %w", lines, err)
		}
		if len(b) > 0 {
			lines++
		}
	}
	d := time.Since(start)
	stdin.Close()
	io.Copy(io.Discard, r)
	cmd.Wait()
	var rss int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss
	}
	return d, rss, nil
}

// latency sends trips requests one at a time and returns each round trip.
func latency(cmd *exec.Cmd, trips int) ([]time.Duration, error) {
	cmd.Env = append(os.Environ(), "RELAYBENCH_ECHO=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	defer cmd.Wait()
	defer stdin.Close()
	r := bufio.NewReader(out)
	ds := make([]time.Duration, 0, trips)
	for i := range trips + 100 {
		req := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":"hi"}]}}`+"\n", i)
		start := time.Now()
		if _, err := io.WriteString(stdin, req); err != nil {
			return nil, err
		}
		if _, err := r.ReadSlice('\n'); err != nil {
			return nil, err
		}
		if i >= 100 { // the first ones warm up both processes
			ds = append(ds, time.Since(start))
		}
	}
	slices.Sort(ds)
	return ds, nil
}

func pct(sorted []time.Duration, p int) time.Duration {
	return sorted[(len(sorted)-1)*p/100]
}

func us(d time.Duration) string {
	return fmt.Sprintf("%.0fµs", float64(d.Nanoseconds())/1000)
}

// echoAgent answers every line with a response carrying the same id.
func echoAgent() {
	r := bufio.NewReader(os.Stdin)
	w := bufio.NewWriter(os.Stdout)
	for {
		line, err := r.ReadSlice('\n')
		if err != nil {
			return
		}
		i := strings.Index(string(line), `"id":`)
		j := strings.IndexByte(string(line[i:]), ',')
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"stopReason":"end_turn"}}`+"\n", line[i+5:i+j])
		w.Flush()
	}
}
