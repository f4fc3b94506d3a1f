package relay_test

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/adapter/relay/relaytest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAgentStderrPassesThroughAndItsTailIsKept(t *testing.T) {
	var stderr relaytest.Buffer
	long := strings.Repeat("x", relay.TailLineMax+20)
	cmd, env := relaytest.FakeAgentCommand(t, "stderr-tail")
	a, err := relay.StartAgent(cmd, env, &stderr)
	require.NoError(t, err)
	select {
	case <-a.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the agent did not exit")
	}
	tail := a.StderrTail(5 * time.Second)
	want := []string{}
	for i := 6; i <= 14; i++ {
		want = append(want, fmt.Sprintf("line %d", i))
	}
	want = append(want, strings.Repeat("x", relay.TailLineMax)+"…")
	assert.Equal(t, want, tail, "the last ten non-blank lines, a long one cut")
	assert.Contains(t, stderr.String(), "line 1\nline 2\n", "everything still reaches askbridge's stderr")
	assert.Contains(t, stderr.String(), long)
}

// What exec says of a command not on PATH, and of a path to no file.
var notOnPath, noSuchFile = func() (string, string) {
	if runtime.GOOS == "windows" {
		// A path is looked up with PATHEXT's extensions too.
		return "executable file not found in %PATH%", "executable file not found in %PATH%"
	}
	return "executable file not found in $PATH", "no such file or directory"
}()

func TestAgentStartErrorIsOneSentence(t *testing.T) {
	_, err := relay.StartAgent([]string{"askbridge-no-such-agent"}, nil, nil)
	var se *relay.StartError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, `cannot start agent "askbridge-no-such-agent": `+notOnPath, err.Error())
	_, err = relay.StartAgent([]string{"/nonexistent/agent"}, nil, nil)
	assert.EqualError(t, err, `cannot start agent "/nonexistent/agent": `+noSuchFile)
}

func TestRunTellsTheClientTheCrashedAgentsLastStderrLines(t *testing.T) {
	cmd, env := relaytest.FakeAgentCommand(t, "missing-key")
	h := startRun(t, cmd, env, time.Second)
	h.client.Send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)
	var resp struct {
		ID    json.RawMessage
		Error struct {
			Code    int
			Message string
			Data    struct{ AgentStderr []string }
		}
	}
	require.NoError(t, json.Unmarshal([]byte(h.client.Recv()), &resp))
	assert.Equal(t, "1", string(resp.ID))
	assert.Equal(t, relay.CodeInternalError, resp.Error.Code)
	assert.Equal(t, "askbridge: the agent exited: exit status 2. Its last stderr lines:\nstarting\nError: ANTHROPIC_API_KEY is not set", resp.Error.Message)
	assert.Equal(t, []string{"starting", "Error: ANTHROPIC_API_KEY is not set"}, resp.Error.Data.AgentStderr)
	var exit *relay.AgentExitError
	require.ErrorAs(t, h.wait(t), &exit)
	assert.Equal(t, 2, exit.ExitCode())
	assert.Contains(t, h.stderr.String(), "Error: ANTHROPIC_API_KEY is not set\n", "and the lines still reach askbridge's stderr")
}
