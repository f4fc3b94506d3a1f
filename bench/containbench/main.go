//go:build linux

// Command containbench measures what containing the agent costs at start:
// the time from starting askbridge to the agent's first initialize
// response, with --contain on (user, PID and mount namespaces, askbridge's
// init) against --contain off, each run -n times, alternating. The agent is
// this program again (-agent): it answers every request at once, so the
// figures are askbridge's and the container's. Target: at most 10 ms more
// contained (issue 48; issue 40's was 20). -also measures another build
// (the session's start, a release) in the same runs. Run it as
// bench/run.sh does; on a busy machine, under chrt -f 10, so that the
// figures are the container's, not the queue's.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

// maxCost is issue 48's target: contained, askbridge reaches its agent's
// first answer within 10 ms of --contain off.
const maxCost = 10 * time.Millisecond

func main() {
	bin := flag.String("askbridge", "bin/askbridge", "the askbridge binary")
	var others []string
	flag.Func("also", "NAME=BINARY: another askbridge measured in the same runs (repeatable)", func(s string) error {
		others = append(others, s)
		return nil
	})
	n := flag.Int("n", 30, "runs of each mode")
	agent := flag.Bool("agent", false, "be the agent (internal)")
	flag.Parse()
	if *agent {
		answer(os.Stdin, os.Stdout)
		return
	}
	self, err := os.Executable()
	if err != nil {
		fail(err)
	}
	bins := [][2]string{{"askbridge", *bin}}
	for _, o := range others {
		name, path, ok := strings.Cut(o, "=")
		if !ok {
			fail(fmt.Errorf("-also %q: want NAME=BINARY", o))
		}
		bins = append(bins, [2]string{name, path})
	}
	// Each run starts every binary off and then on, one after the other,
	// so that a busy spell of the machine falls on all of them alike; a
	// run's cost is its on less its off.
	times := map[string][]time.Duration{}
	for i := 0; i < *n; i++ {
		for _, b := range bins {
			took := map[string]time.Duration{}
			for _, mode := range []string{"off", "on"} {
				d, err := firstResponse(b[1], mode, self)
				if err != nil {
					fail(fmt.Errorf("%s --contain %s: %w", b[0], mode, err))
				}
				took[mode] = d
				times[b[0]+" "+mode] = append(times[b[0]+" "+mode], d)
			}
			times[b[0]+" cost"] = append(times[b[0]+" cost"], took["on"]-took["off"])
		}
	}
	fmt.Printf("start to the agent's first initialize response, median of %d (p90), and what containing costs (median of each run's on less its off):\n", *n)
	for _, b := range bins {
		off, on, cost := times[b[0]+" off"], times[b[0]+" on"], times[b[0]+" cost"]
		verdict := "within"
		if median(cost) > maxCost {
			verdict = "OVER"
		}
		fmt.Printf("  %-10s --contain off %6.1f ms (%.1f)  on %6.1f ms (%.1f)  containment costs %.1f ms (%s the target: at most %v)\n",
			b[0], ms(median(off)), ms(p90(off)), ms(median(on)), ms(p90(on)), ms(median(cost)), verdict, maxCost)
	}
}

// firstResponse starts askbridge with the agent and times initialize.
func firstResponse(bin, mode, self string) (time.Duration, error) {
	cmd := exec.Command(bin, "--hub", "off", "--contain", mode, "--", self, "-agent")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return 0, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	defer cmd.Wait()
	defer in.Close()
	io.WriteString(in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`+"\n")
	line, err := bufio.NewReader(out).ReadString('\n')
	took := time.Since(start)
	if err != nil {
		return 0, fmt.Errorf("no answer: %v\n%s", err, stderr.String())
	}
	in.Close()
	cmd.Wait()
	if mode == "on" && !strings.Contains(stderr.String(), "agent contained") {
		return 0, fmt.Errorf("not contained:\n%s", stderr.String())
	}
	if !strings.Contains(line, `"result"`) {
		return 0, fmt.Errorf("answered %s", line)
	}
	return took, nil
}

// answer is the agent: a result for every request, until stdin ends.
func answer(r io.Reader, w io.Writer) {
	s := bufio.NewScanner(r)
	s.Buffer(make([]byte, 1<<20), 1<<20)
	for s.Scan() {
		line := s.Text()
		i := strings.Index(line, `"id":`)
		if i < 0 {
			continue
		}
		id := line[i+5:]
		id = id[:strings.IndexAny(id, ",}")]
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":1,"agentCapabilities":{}}}`+"\n", id)
	}
}

func median(d []time.Duration) time.Duration {
	s := slices.Sorted(slices.Values(d))
	return s[len(s)/2]
}

func p90(d []time.Duration) time.Duration {
	s := slices.Sorted(slices.Values(d))
	return s[len(s)*9/10]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func fail(err error) {
	fmt.Fprintln(os.Stderr, "containbench:", err)
	os.Exit(1)
}
