package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// When askbridge cannot start, the editor's initialize still gets an
// answer: a JSON-RPC error carrying the one-line reason stderr has, then
// askbridge exits non-zero. An editor that shows no stderr shows that.
func TestStartupErrorsAnswerTheEditorsInitialize(t *testing.T) {
	t.Parallel()
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer busy.Close()
	tests := []struct {
		name   string
		args   []string
		reason string // the error's message, after "askbridge: "
		code   int
	}{
		{"bad flag", []string{"--bogus", "--", "cat"}, "flag provided but not defined: -bogus", 2},
		{"duration without a unit", []string{"--question-timeout", "5", "--", "cat"}, "--question-timeout 5: give a unit, e.g. 5m", 2},
		{"desk port in use", []string{"--desk", busy.Addr().String(), "--", "cat"}, "--desk " + busy.Addr().String() + ": the address is taken", 2},
		{"approvals desk alone", []string{"--approvals", "desk", "--hub", "off", "--", "cat"},
			"--approvals desk: nothing could answer them; add --desk ADDR or --hub SOCKET (or use --approvals mirror)", 2},
		{"no agent", []string{"--desk", "127.0.0.1:0"}, "no agent to run: give its command after --", 2},
		{"a misspelt subcommand", []string{"demos"}, "unknown command demos; did you mean demo?", 2},
		{"agent not found", []string{"--", "askbridge-no-such-agent"}, `cannot start agent "askbridge-no-such-agent"`, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, askbridgeBin, tt.args...)
			cmd.Env = append(os.Environ(), "GORACE=atexit_sleep_ms=0", "ASKBRIDGE_SOCKET=")
			var errOut strings.Builder
			cmd.Stderr = &errOut
			in, err := cmd.StdinPipe()
			require.NoError(t, err)
			out, err := cmd.StdoutPipe()
			require.NoError(t, err)
			require.NoError(t, cmd.Start())
			_, err = in.Write([]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}` + "\n"))
			require.NoError(t, err)
			line, err := bufio.NewReader(out).ReadBytes('\n')
			require.NoError(t, err, "an answer to initialize")
			var resp struct {
				ID    *int `json:"id"`
				Error *struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			require.NoError(t, json.Unmarshal(line, &resp), string(line))
			require.NotNil(t, resp.ID)
			assert.Equal(t, 0, *resp.ID)
			require.NotNil(t, resp.Error, "an error: %s", line)
			assert.Equal(t, -32603, resp.Error.Code)
			assert.True(t, strings.HasPrefix(resp.Error.Message, "askbridge: "), resp.Error.Message)
			assert.Contains(t, resp.Error.Message, tt.reason)
			assert.NotContains(t, resp.Error.Message, "\n", "one line")
			in.Close()
			err = cmd.Wait()
			var ee *exec.ExitError
			require.True(t, errors.As(err, &ee), "askbridge exits non-zero: %v", err)
			assert.Equal(t, tt.code, ee.ExitCode())
			assert.Contains(t, errOut.String(), tt.reason, "stderr says the same")
		})
	}
}

func TestMistypedCommandSuggestsTheSubcommand(t *testing.T) {
	t.Parallel()
	for word, want := range map[string]string{
		"demos": "demo", "hbu": "hub", "inbx": "inbox", "replya": "replay", "HUB": "hub", "recordfixture": "record-fixture",
	} {
		assert.Equal(t, "unknown command "+word+"; did you mean "+want+"?", mistypedCommand([]string{word}, []string{word}), word)
	}
	for _, word := range []string{"cat", "npx", "gemini", "./demos", "qwen"} {
		assert.Empty(t, mistypedCommand([]string{word}, []string{word}), "%s is an agent, not a typo", word)
	}
	assert.Empty(t, mistypedCommand([]string{"--", "demos"}, []string{"demos"}), "after -- it is the agent's command, as written")
}

// askbridge -- AGENT typed in a shell waits for JSON-RPC that never comes:
// one line on stderr says so; askbridge no-arguments on a terminal says
// what is missing without waiting for a client.
func TestATerminalOnStdinGetsAHint(t *testing.T) {
	t.Parallel()
	s := newTTY(t).run(200, "-- cat")
	s.waitScreen("waiting for an ACP client's JSON-RPC on stdin; run it from an editor (docs/clients.md), or try askbridge demo")
	s.key("C-d")
	assert.Contains(t, s.result(), "EXIT=0", "the client (the terminal) closed its input")

	s = newTTY(t).run(200, "")
	screen := s.waitScreen("askbridge: no agent to run: give its command after --")
	assert.Contains(t, screen, "Usage:")
	assert.NotContains(t, screen, "Flags:", "the short usage")
	assert.Contains(t, s.result(), "EXIT=2")
}
