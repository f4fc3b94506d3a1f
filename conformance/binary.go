package conformance

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// ReplayBinary plays the fixture against an askbridge binary: askbridge runs
// `bin [fixture flags] -- bin __replay-agent FIXTURE OUT`, so the agent side
// plays in a child process of askbridge, as a real agent would, and writes
// what it received to OUT.
func ReplayBinary(ctx context.Context, bin, fixturePath string, f *Fixture, env []string) (Got, error) {
	dir, err := os.MkdirTemp("", "askbridge-replay")
	if err != nil {
		return Got{}, err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "agent-received.jsonl")
	args := append(append(append([]string{}, f.Flags...), "--log-level=error", "--"), bin, "__replay-agent", fixturePath, out)
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	w, err := cmd.StdinPipe()
	if err != nil {
		return Got{}, err
	}
	r, err := cmd.StdoutPipe()
	if err != nil {
		return Got{}, err
	}
	if err := cmd.Start(); err != nil {
		return Got{}, err
	}
	client, playErr := playClient(ctx, f, w, r, nil)
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	select {
	case <-waited:
	case <-time.After(15 * time.Second):
		cmd.Process.Kill()
		<-waited
		return Got{}, fmt.Errorf("askbridge did not exit after the client closed its input; stderr:\n%s", stderr.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		return Got{}, fmt.Errorf("the replay agent left no record (%v); askbridge stderr:\n%s", err, stderr.String())
	}
	agent, err := jsonLines(data)
	if err != nil {
		return Got{}, err
	}
	if playErr != nil {
		return Got{Client: client, Agent: agent}, fmt.Errorf("%v; askbridge stderr:\n%s", playErr, stderr.String())
	}
	return Got{Client: client, Agent: agent}, nil
}

// RunAgentSide plays the fixture's agent on r/w (the agent's stdio) until
// askbridge closes r, then writes what it received to out. openCodeAddr,
// when set, is where askbridge expects OpenCode's question server (it
// passed --hostname and --port), with the password in
// OPENCODE_SERVER_PASSWORD.
func RunAgentSide(ctx context.Context, f *Fixture, r io.Reader, w io.Writer, out, openCodeAddr string) error {
	agent := newSide("agent", f.Agent, true)
	if openCodeAddr != "" {
		ln, err := net.Listen("tcp", openCodeAddr)
		if err != nil {
			return fmt.Errorf("serving OpenCode's question routes on %s: %w", openCodeAddr, err)
		}
		oc := startOpenCode(ln, os.Getenv("OPENCODE_SERVER_PASSWORD"), agent)
		defer oc.close()
	}
	done := make(chan struct{})
	go func() { agent.receive(r); close(done) }()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	playErr := make(chan error, 1)
	go func() { playErr <- agent.play(ctx, w) }()
	select {
	case <-done:
	case <-ctx.Done():
	}
	var b bytes.Buffer
	for _, l := range agent.received() {
		b.Write(l)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(out, b.Bytes(), 0o600); err != nil {
		return err
	}
	select {
	case err := <-playErr:
		return err
	default:
		return fmt.Errorf("agent script unfinished when askbridge closed the agent's input")
	}
}
