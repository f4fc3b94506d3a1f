//go:build unix

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// session is one contestant's process, spoken to as an editor would: it is
// started, initialized, given a session, then measured.
type session struct {
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	out     *bufio.Reader
	nextID  int
	killer  *time.Timer
	startup time.Duration // from start to the initialize result
}

// startSession starts argv in its own process group (so a run that overruns
// limit takes the relay's agent down with it) and performs the handshake.
func startSession(argv []string, limit time.Duration) (*session, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &session{cmd: cmd, stdin: stdin, out: bufio.NewReaderSize(out, 1<<20)}
	s.killer = time.AfterFunc(limit, s.kill)
	if _, err := s.call("initialize", `{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":false,"writeTextFile":false},"terminal":false}}`); err != nil {
		s.close()
		return nil, fmt.Errorf("initialize: %w", err)
	}
	s.startup = time.Since(start)
	if _, err := s.call("session/new", `{"cwd":"/","mcpServers":[]}`); err != nil {
		s.close()
		return nil, fmt.Errorf("session/new: %w", err)
	}
	return s, nil
}

func (s *session) kill() { syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL) }

// send writes one request and returns its id.
func (s *session) send(method, params string) (int, error) {
	id := s.nextID
	s.nextID++
	_, err := fmt.Fprintf(s.stdin, `{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`+"\n", id, method, params)
	return id, err
}

// call sends a request and reads its response, which must be the next line.
func (s *session) call(method, params string) ([]byte, error) {
	id, err := s.send(method, params)
	if err != nil {
		return nil, err
	}
	line, err := s.out.ReadBytes('\n')
	if err != nil {
		return nil, s.readErr(err)
	}
	return line, checkResponse(line, id)
}

// readErr names a read that failed because the time limit killed the run.
func (s *session) readErr(err error) error {
	if !s.killer.Stop() {
		return fmt.Errorf("%w (killed: the run took longer than its limit)", err)
	}
	return err
}

// checkResponse says what is wrong with a line that should be the result of
// request id.
func checkResponse(line []byte, id int) error {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	switch {
	case json.Unmarshal(line, &m) != nil:
		return fmt.Errorf("not JSON: %q", trim(line))
	case m.Method != "":
		return fmt.Errorf("want the response to request %d, got a %s message", id, m.Method)
	case m.Error != nil:
		return fmt.Errorf("error response: %s", trim(line))
	case string(m.ID) != strconv.Itoa(id) || m.Result == nil:
		return fmt.Errorf("want the result of request %d, got %s", id, trim(line))
	}
	return nil
}

func trim(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// throughput asks for a prompt turn that streams n notifications and returns
// the time from the prompt to its result.
func (s *session) throughput(n int) (time.Duration, error) {
	start := time.Now()
	id, err := s.send("session/prompt", `{"sessionId":"`+sessionID+`","prompt":[{"type":"text","text":"`+streamText+`"}]}`)
	if err != nil {
		return 0, err
	}
	method := []byte(`"method"`)
	got := 0
	for {
		line, err := s.out.ReadSlice('\n')
		for err == bufio.ErrBufferFull { // longer than the buffer: read past it
			_, err = s.out.ReadSlice('\n')
		}
		if err != nil {
			return 0, fmt.Errorf("after %d of %d notifications: %w", got, n, s.readErr(err))
		}
		if bytes.Contains(line, method) {
			got++
			continue
		}
		d := time.Since(start)
		if err := checkResponse(line, id); err != nil {
			return 0, err
		}
		if got != n {
			return 0, fmt.Errorf("%d of %d notifications arrived before the prompt's result", got, n)
		}
		return d, nil
	}
}

// upstream streams the n notifications of file from the editor to the
// agent as fast as the pipe takes them, then asks the agent how many
// arrived, and returns the time from the first byte to that answer.
func (s *session) upstream(file string, n int) (time.Duration, error) {
	f, err := os.Open(file)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	id := s.nextID
	s.nextID++
	start := time.Now()
	wrote := make(chan error, 1)
	go func() {
		_, err := io.Copy(s.stdin, f)
		if err == nil {
			_, err = fmt.Fprintf(s.stdin, `{"jsonrpc":"2.0","id":%d,"method":%q,"params":{}}`+"\n", id, countMethod)
		}
		wrote <- err
	}()
	line, err := s.out.ReadBytes('\n')
	d := time.Since(start)
	if err != nil {
		return 0, fmt.Errorf("waiting for the agent's count: %w", s.readErr(err))
	}
	if err := <-wrote; err != nil {
		return 0, err
	}
	if err := checkResponse(line, id); err != nil {
		return 0, err
	}
	var r struct {
		Result int `json:"result"`
	}
	if err := json.Unmarshal(line, &r); err != nil {
		return 0, fmt.Errorf("the agent's count is not a number: %s", trim(line))
	}
	if r.Result != n {
		return 0, fmt.Errorf("the agent counted %d of %d notifications", r.Result, n)
	}
	return d, nil
}

// latency sends trips prompts one at a time and returns each round trip,
// sorted. The first 100 warm both processes up and are not counted.
func (s *session) latency(trips int) ([]time.Duration, error) {
	const warm = 100
	ds := make([]time.Duration, 0, trips)
	params := `{"sessionId":"` + sessionID + `","prompt":[{"type":"text","text":"hi"}]}`
	errMark := []byte(`"error"`)
	for i := range trips + warm {
		start := time.Now()
		if _, err := s.send("session/prompt", params); err != nil {
			return nil, err
		}
		line, err := s.out.ReadSlice('\n')
		if err != nil {
			return nil, s.readErr(err)
		}
		d := time.Since(start)
		if bytes.Contains(line, errMark) {
			return nil, fmt.Errorf("error response: %s", trim(line))
		}
		if i >= warm {
			ds = append(ds, d)
		}
	}
	slices.Sort(ds)
	return ds, nil
}

// peakRSS is the process's own high-water mark in KiB (the relay's, not its
// agent's), read from /proc before it exits.
func (s *session) peakRSS() int64 { return s.status("VmHWM:") }

// status reads one KiB figure of the process's /proc status; 0 if none.
func (s *session) status(field string) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, field); ok {
			kib, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kib
		}
	}
	return 0
}

// privateEvery is how often watchPrivate looks.
const privateEvery = 5 * time.Millisecond

// watchPrivate samples the process's private memory (RssAnon: its heap,
// stacks and buffers, what no other process shares, unlike the pages of its
// binary) until stop is closed, and returns the highest it saw. Linux has
// no high-water mark of it, so a peak between two looks can be missed.
func (s *session) watchPrivate(stop <-chan struct{}) <-chan int64 {
	peak := make(chan int64, 1)
	go func() {
		t := time.NewTicker(privateEvery)
		defer t.Stop()
		var high int64
		for {
			high = max(high, s.status("RssAnon:"))
			select {
			case <-stop:
				peak <- high
				return
			case <-t.C:
			}
		}
	}()
	return peak
}

// close hangs up as an editor does (stdin closed) and waits for the process;
// one that lingers is killed with its process group.
func (s *session) close() error {
	s.stdin.Close()
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case err := <-done:
		s.killer.Stop()
		var exit *exec.ExitError
		if errors.As(err, &exit) && exit.ExitCode() == -1 {
			return nil // killed by us after a failure already reported
		}
		return err
	case <-time.After(5 * time.Second):
		s.kill()
		<-done
		return errors.New("did not exit within 5s of its stdin closing")
	}
}
