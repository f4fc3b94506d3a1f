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
	"sync"
	"time"

	"github.com/askbridge/askbridge/internal/pty"
)

// ReplayBinary plays the fixture against an askbridge binary: askbridge runs
// `bin [fixture flags] -- bin __replay-agent FIXTURE OUT`, so the agent side
// plays in a child process of askbridge, as a real agent would, and writes
// what it received to OUT; bin is started under a name of the fixture's
// agent (agentProgram).
func ReplayBinary(ctx context.Context, bin, fixturePath string, f *Fixture, env []string) (Got, error) {
	dir, err := os.MkdirTemp("", "askbridge-replay")
	if err != nil {
		return Got{}, err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "agent-received.jsonl")
	// A replay answers at once by construction: --min-answer-time would
	// take every recorded answer for an automatic one. A fixture's own
	// flags come after, so one may set it.
	args := append(append([]string{"--min-answer-time=0"}, f.Flags...), "--log-level=error")
	env = append(os.Environ(), env...)
	stderr := &syncBuffer{}
	var desk *deskEndpoint
	tty := &syncBuffer{}
	if len(f.Desk) > 0 {
		// The desk on a port of its own; askbridge says the port on
		// stderr, and its pairing code on its terminal only, which the
		// replay plays the user at.
		desk = &deskEndpoint{base: stderr.deskURL, code: tty.pairingCode}
		args = append(args, "--desk=127.0.0.1:0")
	}
	program, err := agentProgram(dir, bin, f.Command)
	if err != nil {
		return Got{}, err
	}
	args = append(args, "--", program, "__replay-agent", fixturePath, out)
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = env
	cmd.Stderr = stderr
	w, err := cmd.StdinPipe()
	if err != nil {
		return Got{}, err
	}
	r, err := cmd.StdoutPipe()
	if err != nil {
		return Got{}, err
	}
	if desk == nil {
		err = cmd.Start()
	} else {
		var term *os.File
		if term, err = pty.Start(cmd); err == nil {
			defer term.Close()
			go io.Copy(tty, term)
		}
	}
	if err != nil {
		return Got{}, err
	}
	client, playErr := playClient(ctx, f, w, r, nil, desk)
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
	client = unmarked(client)
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

// syncBuffer is askbridge's stderr, read while it is written.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

var (
	deskAt     = lazyRegexp(`askbridge: desk at (http://[^/\s]+/)`)
	deskCodeIs = lazyRegexp(`desk pairing code ([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})`)
)

// pairingCode waits for the desk's pairing code on askbridge's terminal.
func (s *syncBuffer) pairingCode(ctx context.Context) (string, error) {
	for {
		if m := deskCodeIs().FindStringSubmatch(s.String()); m != nil {
			return m[1], nil
		}
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("askbridge never showed its desk's pairing code on its terminal; the terminal shows:\n%s", s.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// deskURL waits for the line where askbridge says where its desk is.
func (s *syncBuffer) deskURL(ctx context.Context) (string, error) {
	for {
		if m := deskAt().FindStringSubmatch(s.String()); m != nil {
			return m[1], nil
		}
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("askbridge never said where its desk is; stderr:\n%s", s.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
}
