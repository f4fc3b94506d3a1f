package adapter

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAgentStderrPassesThroughAndItsTailIsKept(t *testing.T) {
	var stderr syncBuffer
	long := strings.Repeat("x", tailLineMax+20)
	a, err := StartAgent([]string{"sh", "-c", `for i in $(seq 1 14); do echo "line $i" >&2; done; echo "` + long + `" >&2; printf '\n  \n' >&2; exit 4`}, nil, &stderr)
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
	want = append(want, strings.Repeat("x", tailLineMax)+"…")
	assert.Equal(t, want, tail, "the last ten non-blank lines, a long one cut")
	assert.Contains(t, stderr.String(), "line 1\nline 2\n", "everything still reaches askbridge's stderr")
	assert.Contains(t, stderr.String(), long)
}

func TestAgentStartErrorIsOneSentence(t *testing.T) {
	_, err := StartAgent([]string{"askbridge-no-such-agent"}, nil, nil)
	var se *StartError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, `cannot start agent "askbridge-no-such-agent": executable file not found in $PATH`, err.Error())
	_, err = StartAgent([]string{"/nonexistent/agent"}, nil, nil)
	assert.EqualError(t, err, `cannot start agent "/nonexistent/agent": no such file or directory`)
}

func TestRunTellsTheClientTheCrashedAgentsLastStderrLines(t *testing.T) {
	h := startRun(t, []string{"sh", "-c", `echo "starting" >&2; read line; echo "Error: ANTHROPIC_API_KEY is not set" >&2; exit 2`}, nil, time.Second)
	h.client.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)
	var resp struct {
		ID    json.RawMessage
		Error struct {
			Code    int
			Message string
			Data    struct{ AgentStderr []string }
		}
	}
	require.NoError(t, json.Unmarshal([]byte(h.client.recv()), &resp))
	assert.Equal(t, "1", string(resp.ID))
	assert.Equal(t, CodeInternalError, resp.Error.Code)
	assert.Equal(t, "askbridge: the agent exited: exit status 2. Its last stderr lines:\nstarting\nError: ANTHROPIC_API_KEY is not set", resp.Error.Message)
	assert.Equal(t, []string{"starting", "Error: ANTHROPIC_API_KEY is not set"}, resp.Error.Data.AgentStderr)
	var exit *AgentExitError
	require.ErrorAs(t, h.wait(t), &exit)
	assert.Equal(t, 2, exit.ExitCode())
	assert.Contains(t, h.stderr.String(), "Error: ANTHROPIC_API_KEY is not set\n", "and the lines still reach askbridge's stderr")
}
