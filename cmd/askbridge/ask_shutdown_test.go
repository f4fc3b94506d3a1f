package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/testkit/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An `askbridge ask` still waiting when its askbridge shuts down prints
// the documented cancel and exits 130, not a JSON-RPC error. The askbridge
// here is the adapter in this process, with the client and the agent on
// pipes; the ask is the built binary.
func TestAskWhoseAskbridgeShutsDownIsCancelled(t *testing.T) {
	t.Parallel()
	testenv.SkipUnderWine(t, testenv.NoUnixSockets)
	cInR, cInW := io.Pipe()
	cOutR, cOutW := io.Pipe()
	aInR, aInW := io.Pipe()
	aOutR, aOutW := io.Pipe()
	relay := relay.New(relay.Config{ClientIn: cInR, ClientOut: cOutW, AgentIn: aInR, AgentOut: aOutW})
	bridge := adapter.NewBridge(adapter.Options{Board: permission.NewBoard(), Limits: permission.DefaultLimits()})
	env, err := bridge.Listen()
	require.NoError(t, err)
	shutdown := bridge.Setup(relay)
	relay.Start()
	defer func() { cInW.Close(); aInW.Close(); cOutW.Close(); aOutW.Close() }()
	toClient, toAgent := bufio.NewScanner(cOutR), bufio.NewScanner(aOutR)
	expect := func(sc *bufio.Scanner, sub string) {
		t.Helper()
		found := make(chan bool, 1)
		go func() {
			for sc.Scan() {
				if strings.Contains(sc.Text(), sub) {
					found <- true
					return
				}
			}
			found <- false
		}()
		select {
		case ok := <-found:
			require.True(t, ok, "stream ended before %q", sub)
		case <-time.After(30 * time.Second):
			t.Fatalf("never saw %q", sub)
		}
	}
	fmt.Fprintln(cInW, `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/tmp","mcpServers":[]}}`)
	expect(toAgent, "session/new")
	fmt.Fprintln(aInW, `{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`)
	expect(toClient, `"sessionId":"s1"`)

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, askbridgeBin, "ask", dbInput)
	cmd.Env = append(append(os.Environ(), env...), "GORACE=atexit_sleep_ms=0")
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Start())
	expect(toClient, "session/request_permission")
	shutdown()

	err = cmd.Wait()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "stdout=%s stderr=%s", stdout.String(), stderr.String())
	assert.Equal(t, 130, exit.ExitCode(), stderr.String())
	assert.JSONEq(t, `{"cancelled":true}`, stdout.String())
	assert.NotContains(t, stderr.String(), "connection is closed")
}
