//go:build linux

package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
)

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}` + "\n"

// settle is how long after the initialize response the memory is read:
// what a route still loads then, it holds for the session.
const settle = 300 * time.Millisecond

// sample is one start of a route.
type sample struct {
	ready   time.Duration // spawn to the initialize response
	rss     int64         // bytes resident, the agent's processes left out
	private int64         // of which private to those processes
	procs   string        // their names, parent first
}

// measure starts the route with the agent, in its own process group,
// sends initialize, times the response, reads the tree's memory and ends
// the route by closing its stdin, as an editor does.
func measure(r route, agent []string, dir string) (sample, error) {
	argv := append(append(slices.Clone(r.argv), "--"), agent...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "ASKBRIDGE_SOCKET="), r.env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return sample{}, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return sample{}, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return sample{}, err
	}
	end := sync.OnceFunc(func() { stop(cmd, stdin) })
	defer end()
	// failed ends the route first: its stderr is whole then, and no longer
	// written.
	failed := func(err error) (sample, error) {
		end()
		return sample{}, fmt.Errorf("%w; stderr: %s", err, stderr.String())
	}
	if _, err := stdin.Write([]byte(initialize)); err != nil {
		return failed(err)
	}
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(stdout).ReadString('\n')
		line <- s
	}()
	var s sample
	select {
	case l := <-line:
		s.ready = time.Since(start)
		if !strings.Contains(l, `"id":1`) || !strings.Contains(l, `"result"`) {
			return failed(fmt.Errorf("not an initialize response: %q", l))
		}
	case <-time.After(30 * time.Second):
		return failed(errors.New("no initialize response in 30 s"))
	}
	time.Sleep(settle)
	agentExe, err := filepath.EvalSymlinks(agent[0])
	if err != nil {
		if agentExe, err = exec.LookPath(agent[0]); err != nil {
			return s, err
		}
	}
	var names []string
	for _, pid := range routeTree(cmd.Process.Pid, agentExe) {
		rss, private, err := memory(pid)
		if err != nil {
			return s, err
		}
		s.rss += rss
		s.private += private
		names = append(names, name(pid))
	}
	s.procs = strings.Join(names, " > ")
	return s, nil
}

// stop closes the route's stdin and waits for it to exit, killing its
// process group after 10 s.
func stop(cmd *exec.Cmd, stdin interface{ Close() error }) {
	stdin.Close()
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
	}
}
