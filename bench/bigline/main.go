// Command bigline measures askbridge's memory around one very long line each
// way: the client sends a request of -size bytes, the agent answers with a
// response as long. It prints askbridge's RSS before, its peak (VmHWM) and
// what it still holds afterwards. Linux only: it reads /proc.
//
//	go build -o bin/askbridge ./cmd/askbridge && go run ./bench/bigline
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

func main() {
	if os.Getenv("BIGLINE_AGENT") != "" {
		agent()
		return
	}
	bin := flag.String("askbridge", "bin/askbridge", "the askbridge binary")
	size := flag.Int("size", 100<<20, "bytes in each long line")
	settle := flag.Duration("settle", 2*time.Second, "how long to wait before reading what is retained")
	flag.Parse()
	if err := run(*bin, *size, *settle, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "bigline:", err)
		os.Exit(1)
	}
}

func run(bin string, size int, settle time.Duration, extra []string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(bin, append(append([]string{"--log-level=error"}, extra...), "--", self)...)
	cmd.Env = append(os.Environ(), "BIGLINE_AGENT="+strconv.Itoa(size))
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	defer cmd.Wait()
	defer stdin.Close()
	out := bufio.NewReaderSize(stdout, 1<<20)
	pid := cmd.Process.Pid

	// A small round trip first, so the figures start from a running relay.
	if _, err := io.WriteString(stdin, `{"jsonrpc":"2.0","id":0,"method":"ping"}`+"\n"); err != nil {
		return err
	}
	if _, err := readLine(out); err != nil {
		return err
	}
	before, _, err := status(pid)
	if err != nil {
		return err
	}

	start := time.Now()
	errc := make(chan error, 1)
	go func() { errc <- writeRequest(stdin, size) }()
	n, err := readLine(out)
	if err != nil {
		return fmt.Errorf("reading the long response: %w", err)
	}
	if err := <-errc; err != nil {
		return fmt.Errorf("writing the long request: %w", err)
	}
	took := time.Since(start)
	if n < size {
		return fmt.Errorf("the response has %d bytes, want at least %d", n, size)
	}
	time.Sleep(settle)
	rss, peak, err := status(pid)
	if err != nil {
		return err
	}
	fmt.Printf("one %d MiB line each way through askbridge in %s\n\n", size>>20, took.Round(time.Millisecond))
	fmt.Printf("| askbridge RSS | MiB |\n|---|---|\n")
	fmt.Printf("| before | %.1f |\n| peak (VmHWM) | %.1f |\n| retained %s after | %.1f |\n",
		mib(before), mib(peak), settle, mib(rss))
	return nil
}

func writeRequest(w io.Writer, size int) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	bw.WriteString(`{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"text":"`)
	chunk := strings.Repeat("x", 1<<16)
	for n := 0; n < size; n += len(chunk) {
		bw.WriteString(chunk[:min(len(chunk), size-n)])
	}
	bw.WriteString("\"}}\n")
	return bw.Flush()
}

// readLine reads one line and returns its length.
func readLine(r *bufio.Reader) (int, error) {
	n := 0
	for {
		b, err := r.ReadSlice('\n')
		n += len(b)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return n, err
	}
}

// status returns the process's current and peak RSS in bytes.
func status(pid int) (rss, peak int64, err error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, err
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		f := strings.Fields(string(line))
		if len(f) < 2 {
			continue
		}
		kb, _ := strconv.ParseInt(f[1], 10, 64)
		switch f[0] {
		case "VmRSS:":
			rss = kb << 10
		case "VmHWM:":
			peak = kb << 10
		}
	}
	return rss, peak, nil
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }

// agent answers the small request in kind and any long one with a response
// of the same length.
func agent() {
	size, _ := strconv.Atoi(os.Getenv("BIGLINE_AGENT"))
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	for {
		n, err := readLine(in)
		if err != nil {
			return
		}
		if n < 1000 {
			w.WriteString(`{"jsonrpc":"2.0","id":0,"result":{}}` + "\n")
		} else {
			w.WriteString(`{"jsonrpc":"2.0","id":1,"result":{"text":"`)
			w.WriteString(strings.Repeat("y", size))
			w.WriteString("\"}}\n")
		}
		w.Flush()
	}
}
