package adapter

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runHarness runs Run with a fake client on pipes.
type runHarness struct {
	client *pipeEnd
	stdinW io.WriteCloser
	stderr *syncBuffer
	done   chan error
}

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

func startRun(t *testing.T, command, env []string, grace time.Duration) *runHarness {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	h := &runHarness{stdinW: inW, stderr: &syncBuffer{}, done: make(chan error, 1)}
	h.client = newPipeEnd(t, outR, inW)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	go func() {
		h.done <- Run(ctx, Config{Command: command, Env: env, Stdin: inR, Stdout: outW, Stderr: h.stderr, Grace: grace})
		outW.Close()
	}()
	t.Cleanup(func() {
		inW.Close()
		cancel()
	})
	return h
}

func (h *runHarness) wait(t *testing.T) error {
	t.Helper()
	select {
	case err := <-h.done:
		return err
	case <-time.After(20 * time.Second):
		t.Fatal("Run did not return")
		return nil
	}
}

func TestRunStopsTheAgentWhenTheClientCloses(t *testing.T) {
	cmd, env := fakeAgentCommand(t, "stderr")
	// A long grace: an agent that exits on stdin EOF is done well before
	// any signal would be sent, however loaded the machine.
	h := startRun(t, cmd, env, 8*time.Second)
	h.client.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)
	assert.JSONEq(t, `{"jsonrpc":"2.0","id":1,"result":{"echo":"initialize"}}`, h.client.recv())
	h.stdinW.Close()
	start := time.Now()
	require.NoError(t, h.wait(t))
	assert.Less(t, time.Since(start), 6*time.Second, "an agent that exits on stdin EOF needs no signal")
	assert.Contains(t, h.stderr.String(), "fake agent: hello on stderr", "the agent's stderr reaches askbridge's")
}

func TestRunAnswersPendingRequestsWhenTheAgentCrashes(t *testing.T) {
	cmd, env := fakeAgentCommand(t, "echo")
	h := startRun(t, cmd, env, time.Second)
	h.client.send(`{"jsonrpc":"2.0","id":"p1","method":"session/prompt","params":{}}`)
	h.client.recv()
	h.client.send(`{"jsonrpc":"2.0","id":7,"method":"crash","params":{}}`)
	var resp struct {
		ID    json.RawMessage
		Error Error
	}
	require.NoError(t, json.Unmarshal([]byte(h.client.recv()), &resp))
	assert.Equal(t, "7", string(resp.ID))
	assert.Equal(t, CodeInternalError, resp.Error.Code)
	assert.Equal(t, "askbridge: the agent exited: exit status 3", resp.Error.Message)

	err := h.wait(t)
	var exit *AgentExitError
	require.ErrorAs(t, err, &exit)
	assert.Equal(t, 3, exit.ExitCode())
}

func TestRunKillsAnAgentThatIgnoresSIGTERM(t *testing.T) {
	cmd, env := fakeAgentCommand(t, "stubborn")
	h := startRun(t, cmd, env, 300*time.Millisecond)
	h.client.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)
	h.client.recv()
	h.stdinW.Close()
	start := time.Now()
	require.NoError(t, h.wait(t))
	elapsed := time.Since(start)
	assert.GreaterOrEqual(t, elapsed, 600*time.Millisecond, "stdin close, then SIGTERM, each with its grace")
	assert.Less(t, elapsed, 5*time.Second)
}

func TestRunReportsAnAgentThatCannotStart(t *testing.T) {
	h := startRun(t, []string{"/nonexistent/agent-binary"}, nil, time.Second)
	h.client.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)
	var resp struct {
		ID    json.RawMessage
		Error Error
	}
	require.NoError(t, json.Unmarshal([]byte(h.client.recv()), &resp))
	assert.Equal(t, "1", string(resp.ID))
	assert.Contains(t, resp.Error.Message, `cannot start agent "/nonexistent/agent-binary"`)
	h.stdinW.Close()
	err := h.wait(t)
	require.Error(t, err)
	assert.Contains(t, err.Error(), noSuchFile)
}

// The client going away mid-question must not leave the agent's question
// unanswered: the bridge cancels it, and the agent gets its dialect's
// cancel before its stdin closes.
func TestClientEOFAnswersTheAgentsPendingQuestionBeforeStoppingIt(t *testing.T) {
	cmd, env := fakeAgentCommand(t, "plain")
	logPath := t.TempDir() + "/agent.log"
	env = append(env, "ASKBRIDGE_FAKE_LOG="+logPath)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	client := newPipeEnd(t, outR, inW)
	done := make(chan error, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	bridge := NewBridge(Options{})
	go func() {
		done <- Run(ctx, Config{Command: cmd, Env: env, Stdin: inR, Stdout: outW, Stderr: io.Discard, Grace: 5 * time.Second, Setup: bridge.Setup})
		outW.Close()
	}()
	client.send(`{"jsonrpc":"2.0","id":1,"method":"ask-now","params":{}}`)
	for {
		var m struct{ Method string }
		require.NoError(t, json.Unmarshal([]byte(client.recv()), &m))
		if m.Method == "session/request_permission" {
			break
		}
	}
	inW.Close()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(20 * time.Second):
		t.Fatal("Run did not return")
	}
	got, err := os.ReadFile(logPath)
	require.NoError(t, err)
	assert.Contains(t, string(got), `"id":"q1"`, "the agent got an answer to its question")
	assert.Contains(t, string(got), `"behavior":"deny"`, "and it is the dialect's cancel")
}

// On a signal with many questions open, every one is withdrawn at the
// client and answered at the agent before askbridge stops the agent.
func TestShutdownDrainsEveryOpenQuestion(t *testing.T) {
	cmd, env := fakeAgentCommand(t, "plain")
	logPath := t.TempDir() + "/agent.log"
	env = append(env, "ASKBRIDGE_FAKE_LOG="+logPath)
	inR, inW := io.Pipe()
	defer inW.Close()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	bridge := NewBridge(Options{MaxRounds: 0})
	go func() {
		done <- Run(ctx, Config{Command: cmd, Env: env, Stdin: inR, Stdout: outW, Stderr: io.Discard, Grace: 5 * time.Second, Setup: bridge.Setup})
		outW.Close()
	}()
	lines := make(chan string, 4096)
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	fmt.Fprintln(inW, `{"jsonrpc":"2.0","id":1,"method":"ask-many","params":{}}`)
	asked, withdrawn, failed := 0, 0, 0
	timeout := time.After(20 * time.Second)
	for asked < 200 {
		select {
		case l := <-lines:
			if strings.Contains(l, `"session/request_permission"`) {
				asked++
			}
		case <-timeout:
			t.Fatalf("only %d questions reached the client", asked)
		}
	}
	cancel()
	for l := range lines {
		switch {
		case strings.Contains(l, `"$/cancel_request"`):
			withdrawn++
		case strings.Contains(l, `"status":"failed"`):
			failed++
		}
	}
	<-done
	assert.Equal(t, 200, withdrawn, "every open permission request is withdrawn")
	assert.Equal(t, 200, failed, "every question's tool call says it was not answered")
	got, err := os.ReadFile(logPath)
	require.NoError(t, err)
	assert.Equal(t, 200, strings.Count(string(got), `"behavior":"deny"`), "every question of the agent's is answered with its cancel")
}
