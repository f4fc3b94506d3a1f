package adapter

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/adapter/relay/relaytest"
)

// The client going away mid-question must not leave the agent's question
// unanswered: the bridge cancels it, and the agent gets its dialect's
// cancel before its stdin closes.
func TestClientEOFAnswersTheAgentsPendingQuestionBeforeStoppingIt(t *testing.T) {
	cmd, env := relaytest.FakeAgentCommand(t, "plain")
	logPath := t.TempDir() + "/agent.log"
	env = append(env, "ASKBRIDGE_FAKE_LOG="+logPath)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	client := relaytest.NewEnd(t, outR, inW)
	done := make(chan error, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	bridge := NewBridge(Options{})
	go func() {
		done <- relay.Run(ctx, relay.RunConfig{Command: cmd, Env: env, Stdin: inR, Stdout: outW, Stderr: io.Discard, Grace: 5 * time.Second, Setup: bridge.Setup})
		outW.Close()
	}()
	client.Send(`{"jsonrpc":"2.0","id":1,"method":"ask-now","params":{}}`)
	for {
		var m struct{ Method string }
		require.NoError(t, json.Unmarshal([]byte(client.Recv()), &m))
		if m.Method == "session/request_permission" {
			break
		}
	}
	inW.Close()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(20 * time.Second):
		t.Fatal("relay.Run did not return")
	}
	got, err := os.ReadFile(logPath)
	require.NoError(t, err)
	assert.Contains(t, string(got), `"id":"q1"`, "the agent got an answer to its question")
	assert.Contains(t, string(got), `"behavior":"deny"`, "and it is the dialect's cancel")
}

// On a signal with many questions open, every one is withdrawn at the
// client and answered at the agent before askbridge stops the agent.
func TestShutdownDrainsEveryOpenQuestion(t *testing.T) {
	cmd, env := relaytest.FakeAgentCommand(t, "plain")
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
		done <- relay.Run(ctx, relay.RunConfig{Command: cmd, Env: env, Stdin: inR, Stdout: outW, Stderr: io.Discard, Grace: 5 * time.Second, Setup: bridge.Setup})
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
