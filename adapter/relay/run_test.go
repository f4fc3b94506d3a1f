package relay_test

import (
	"context"
	"encoding/json"
	"io"
	"testing"
	"time"

	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/adapter/relay/relaytest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runHarness runs relay.Run with a fake client on pipes.
type runHarness struct {
	client *relaytest.End
	stdinW io.WriteCloser
	stderr *relaytest.Buffer
	done   chan error
}

func startRun(t *testing.T, command, env []string, grace time.Duration) *runHarness {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	h := &runHarness{stdinW: inW, stderr: &relaytest.Buffer{}, done: make(chan error, 1)}
	h.client = relaytest.NewEnd(t, outR, inW)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	go func() {
		h.done <- relay.Run(ctx, relay.RunConfig{Command: command, Env: env, Stdin: inR, Stdout: outW, Stderr: h.stderr, Grace: grace})
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
		t.Fatal("relay.Run did not return")
		return nil
	}
}

func TestRunStopsTheAgentWhenTheClientCloses(t *testing.T) {
	cmd, env := relaytest.FakeAgentCommand(t, "stderr")
	// A long grace: an agent that exits on stdin EOF is done well before
	// any signal would be sent, however loaded the machine.
	h := startRun(t, cmd, env, 8*time.Second)
	h.client.Send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)
	assert.JSONEq(t, `{"jsonrpc":"2.0","id":1,"result":{"echo":"initialize"}}`, h.client.Recv())
	h.stdinW.Close()
	start := time.Now()
	require.NoError(t, h.wait(t))
	assert.Less(t, time.Since(start), 6*time.Second, "an agent that exits on stdin EOF needs no signal")
	assert.Contains(t, h.stderr.String(), "fake agent: hello on stderr", "the agent's stderr reaches askbridge's")
}

func TestRunAnswersPendingRequestsWhenTheAgentCrashes(t *testing.T) {
	cmd, env := relaytest.FakeAgentCommand(t, "echo")
	h := startRun(t, cmd, env, time.Second)
	h.client.Send(`{"jsonrpc":"2.0","id":"p1","method":"session/prompt","params":{}}`)
	h.client.Recv()
	h.client.Send(`{"jsonrpc":"2.0","id":7,"method":"crash","params":{}}`)
	var resp struct {
		ID    json.RawMessage
		Error relay.Error
	}
	require.NoError(t, json.Unmarshal([]byte(h.client.Recv()), &resp))
	assert.Equal(t, "7", string(resp.ID))
	assert.Equal(t, relay.CodeInternalError, resp.Error.Code)
	assert.Equal(t, "askbridge: the agent exited: exit status 3", resp.Error.Message)

	err := h.wait(t)
	var exit *relay.AgentExitError
	require.ErrorAs(t, err, &exit)
	assert.Equal(t, 3, exit.ExitCode())
}

func TestRunKillsAnAgentThatIgnoresSIGTERM(t *testing.T) {
	cmd, env := relaytest.FakeAgentCommand(t, "stubborn")
	h := startRun(t, cmd, env, 300*time.Millisecond)
	h.client.Send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)
	h.client.Recv()
	h.stdinW.Close()
	start := time.Now()
	require.NoError(t, h.wait(t))
	elapsed := time.Since(start)
	assert.GreaterOrEqual(t, elapsed, 600*time.Millisecond, "stdin close, then SIGTERM, each with its grace")
	assert.Less(t, elapsed, 5*time.Second)
}

func TestRunReportsAnAgentThatCannotStart(t *testing.T) {
	h := startRun(t, []string{"/nonexistent/agent-binary"}, nil, time.Second)
	h.client.Send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)
	var resp struct {
		ID    json.RawMessage
		Error relay.Error
	}
	require.NoError(t, json.Unmarshal([]byte(h.client.Recv()), &resp))
	assert.Equal(t, "1", string(resp.ID))
	assert.Contains(t, resp.Error.Message, `cannot start agent "/nonexistent/agent-binary"`)
	h.stdinW.Close()
	err := h.wait(t)
	require.Error(t, err)
	assert.Contains(t, err.Error(), noSuchFile)
}
