package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/askbridge/askbridge/adapter/mcpask"
	"github.com/askbridge/askbridge/internal/askwire"
	"github.com/askbridge/askbridge/testkit/testenv"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMCPHelpAndBadArguments(t *testing.T) {
	var out, errOut bytes.Buffer
	assert.Equal(t, 0, runMCP([]string{"-h"}, strings.NewReader(""), &out, &errOut))
	assert.Empty(t, out.String(), "stdout is the protocol")
	assert.Contains(t, errOut.String(), "Usage: askbridge mcp")
	assert.Contains(t, errOut.String(), "ASKBRIDGE_MCP_TAG")

	errOut.Reset()
	assert.Equal(t, 2, runMCP([]string{"extra"}, strings.NewReader(""), &out, &errOut))
	assert.Contains(t, errOut.String(), `unexpected argument "extra"`)

	errOut.Reset()
	t.Setenv("ASK_MAX_OPTIONS", "zero")
	assert.Equal(t, 2, runMCP(nil, strings.NewReader(""), &out, &errOut))
	assert.Contains(t, errOut.String(), `ASK_MAX_OPTIONS="zero"`)
}

func TestMCPNamesMatchTheAdapters(t *testing.T) {
	assert.Equal(t, askwire.SocketEnv, askwire.SocketEnv)
}

// socketOf returns the ask socket the running askbridge gave its agent.
func socketOf(c *client, session string) string {
	c.prompt(session, "shell", map[string]any{"argv": []string{"sh", "-c", `printf %s "$ASKBRIDGE_SOCKET"`}})
	saw := c.agentSaw()
	path, ok := strings.CutPrefix(strings.TrimSuffix(saw, " stderr="), "exit=0 stdout=")
	require.True(c.t, ok && path != "", "the agent's environment: %q", saw)
	return path
}

// startMCP runs the built `askbridge mcp` over stdio with env, as an agent
// does, and returns the client session and the command.
func startMCP(t *testing.T, env ...string) (*mcp.ClientSession, *exec.Cmd) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	cmd := exec.Command(askbridgeBin, "mcp")
	cmd.Env = append(os.Environ(), append([]string{"GORACE=atexit_sleep_ms=0"}, env...)...)
	cmd.Stderr = os.Stderr
	// Long enough that an exit within it is the server's own, on stdin EOF.
	tr := &mcp.CommandTransport{Command: cmd, TerminateDuration: 20 * time.Second}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "0"}, nil).Connect(ctx, tr, nil)
	require.NoError(t, err)
	t.Cleanup(func() {
		cs.Close()
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
		}
	})
	return cs, cmd
}

// TestMCPThroughTheRealAskbridge runs the chain an agent builds: the built
// `askbridge mcp` asks through a running askbridge's socket, the client
// answers the permission request, and the answer comes back as the tool's
// result. Closing the server's stdin then ends it by itself.
func TestMCPThroughTheRealAskbridge(t *testing.T) {
	testenv.SkipUnderWine(t, testenv.NoUnixSockets)
	c := startClient(t)
	s := c.setup()
	cs, cmd := startMCP(t, "ASKBRIDGE_SOCKET="+socketOf(c, s), "ASKBRIDGE_MCP_TAG=tag-e2e")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	type call struct {
		res *mcp.CallToolResult
		err error
	}
	ask := func(args string) chan call {
		done := make(chan call, 1)
		go func() {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: mcpask.ToolName, Arguments: json.RawMessage(args)})
			done <- call{res, err}
		}()
		return done
	}
	input := `{"questions":[{"question":"Which database?","header":"Database","options":[{"label":"Postgres"},{"label":"Redis"}]},{"question":"Which features?","header":"Features","multiSelect":true,"options":[{"label":"Auth"},{"label":"Search"},{"label":"Billing"}]}]}`
	done := ask(input)
	req := c.permissionRequest()
	assert.Equal(t, s, req["params"].(map[string]any)["sessionId"])
	c.reply(req, `{"outcome":{"outcome":"selected","optionId":"__other__","_meta":{"customText":"CockroachDB"}}}`)
	c.reply(c.permissionRequest(), `{"outcome":{"outcome":"selected","optionId":"Auth","_meta":{"selectedOptionIds":["Auth","Billing"]}}}`)
	got := <-done
	require.NoError(t, got.err)
	require.False(t, got.res.IsError, "%v", got.res.Content)
	assert.Equal(t, `"Which database?"="CockroachDB" (typed by the user)`+"\n"+`"Which features?"="Auth, Billing"`, got.res.Content[0].(*mcp.TextContent).Text)
	assert.JSONEq(t, `{"answers":{"Which database?":{"answer":"CockroachDB","typed":true},"Which features?":{"answer":"Auth, Billing","labels":["Auth","Billing"],"typed":false}}}`, jsonString(got.res.StructuredContent))

	done = ask(input)
	c.reply(c.permissionRequest(), `{"outcome":{"outcome":"cancelled"}}`)
	got = <-done
	require.NoError(t, got.err)
	assert.True(t, got.res.IsError)
	assert.Contains(t, got.res.Content[0].(*mcp.TextContent).Text, "The user cancelled the question")

	start := time.Now()
	require.NoError(t, cs.Close())
	assert.Less(t, time.Since(start), 10*time.Second)
	require.NotNil(t, cmd.ProcessState)
	assert.True(t, cmd.ProcessState.Exited(), "exited by itself, not by a signal: %v", cmd.ProcessState)
	assert.Equal(t, 0, cmd.ProcessState.ExitCode())
}

// TestMCPExitsWhenStdinClosesMidQuestion: an agent that goes away while a
// question is open leaves no server behind, and askbridge withdraws it.
func TestMCPExitsWhenStdinClosesMidQuestion(t *testing.T) {
	testenv.SkipUnderWine(t, testenv.NoUnixSockets)
	c := startClient(t)
	s := c.setup()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, askbridgeBin, "mcp")
	cmd.Env = append(os.Environ(), "GORACE=atexit_sleep_ms=0", "ASKBRIDGE_SOCKET="+socketOf(c, s))
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"agent","version":"0"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ask_user_question","arguments":{"questions":[{"question":"Deploy now?","header":"Deploy","options":[{"label":"Yes"},{"label":"Later"}]}]}}}`,
	} {
		_, err := stdin.Write([]byte(line + "\n"))
		require.NoError(t, err)
	}
	req := c.permissionRequest()
	stdin.Close()
	exited := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
		}
		exited <- cmd.Wait()
	}()
	select {
	case err := <-exited:
		assert.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("askbridge mcp did not exit after its stdin closed")
	}
	withdrawn := c.next(func(m map[string]any) bool { return m["method"] == "$/cancel_request" })
	assert.Equal(t, req["id"], withdrawn["params"].(map[string]any)["requestId"])
}
