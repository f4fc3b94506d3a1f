package mcpask

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/sourcegraph/jsonrpc2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// progressClient connects a client that records the progress it gets.
func progressClient(t *testing.T, opts Options) (*mcp.ClientSession, func() []*mcp.ProgressNotificationParams) {
	t.Helper()
	var mu sync.Mutex
	var got []*mcp.ProgressNotificationParams
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := New(opts).Connect(ctx, st, nil)
	require.NoError(t, err)
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			got = append(got, r.Params)
			mu.Unlock()
		}})
	cs, err := client.Connect(ctx, ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs, func() []*mcp.ProgressNotificationParams {
		mu.Lock()
		defer mu.Unlock()
		return append([]*mcp.ProgressNotificationParams(nil), got...)
	}
}

// answerAfter is a fake askbridge whose user answers after d.
func answerAfter(d time.Duration) func(context.Context, *jsonrpc2.Conn, askParams) (any, error) {
	return func(ctx context.Context, _ *jsonrpc2.Conn, p askParams) (any, error) {
		select {
		case <-time.After(d):
		case <-ctx.Done():
		}
		return pick(p, "", "Redis"), nil
	}
}

func callWithToken(t *testing.T, cs *mcp.ClientSession, token any) *mcp.CallToolResult {
	t.Helper()
	params := &mcp.CallToolParams{Name: ToolName, Arguments: json.RawMessage(dbQuestion)}
	if token != nil {
		params.SetProgressToken(token)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, params)
	require.NoError(t, err)
	return res
}

// While nobody answers, a host that gave a progressToken hears progress
// with that token, increasing, and none once the answer is given.
func TestProgressIsSentWhileNobodyAnswers(t *testing.T) {
	f := startFakeBridge(t, answerAfter(400*time.Millisecond))
	cs, progress := progressClient(t, Options{Socket: f.path, ProgressEvery: 50 * time.Millisecond})
	res := callWithToken(t, cs, "tok-7")
	assert.Equal(t, `"Which database?"="Redis"`, text(t, res))
	got := progress()
	require.GreaterOrEqual(t, len(got), 3, "progress while waiting 400 ms, every 50 ms")
	for i, p := range got {
		assert.Equal(t, "tok-7", p.ProgressToken)
		assert.Equal(t, progressMessage, p.Message)
		if i > 0 {
			assert.Greater(t, p.Progress, got[i-1].Progress, "progress increases")
		}
	}
	// The last notification sent before the answer may be handled by the
	// client after the result (its notifications run apart from its
	// calls): count once that has settled, then nothing more comes.
	time.Sleep(150 * time.Millisecond)
	n := len(progress())
	time.Sleep(150 * time.Millisecond) // three periods: nothing after the answer
	assert.Len(t, progress(), n)
}

// No token, no progress: the spec allows it only for a request that asked.
func TestNoProgressWithoutAToken(t *testing.T) {
	f := startFakeBridge(t, answerAfter(300*time.Millisecond))
	cs, progress := progressClient(t, Options{Socket: f.path, ProgressEvery: 30 * time.Millisecond})
	callWithToken(t, cs, nil)
	assert.Empty(t, progress())
}

// Progress stops at the ceiling, however long the question waits.
func TestProgressStopsAtTheCeiling(t *testing.T) {
	f := startFakeBridge(t, answerAfter(600*time.Millisecond))
	cs, progress := progressClient(t, Options{Socket: f.path, ProgressEvery: 40 * time.Millisecond, ProgressFor: 130 * time.Millisecond})
	callWithToken(t, cs, 42)
	got := progress()
	assert.NotEmpty(t, got)
	assert.LessOrEqual(t, len(got), 3, "at most the ceiling's worth")
}

// A host that ends the call (its timeout, or notifications/cancelled) has
// askbridge told so before the connection closes: the question stays
// answerable there, and the answer reaches the model later. Before, the
// connection just closed and the question was withdrawn.
func TestEndedCallTellsAskbridgeTheHostStoppedWaiting(t *testing.T) {
	asked := make(chan struct{})
	f := startFakeBridge(t, func(ctx context.Context, _ *jsonrpc2.Conn, _ askParams) (any, error) {
		close(asked)
		<-ctx.Done()
		return nil, ctx.Err()
	})
	cs := connect(t, Options{Socket: f.path})
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: ToolName, Arguments: json.RawMessage(dbQuestion)})
		errc <- err
	}()
	select {
	case <-asked:
	case <-time.After(5 * time.Second):
		t.Fatal("the question never reached askbridge")
	}
	cancel() // the SDK's client sends notifications/cancelled
	assert.Error(t, <-errc)
	select {
	case <-f.gone:
	case <-time.After(5 * time.Second):
		t.Fatal("the connection to askbridge stayed open")
	}
	require.Len(t, f.stoppedWaiting(), 1)
	assert.NotEmpty(t, f.stoppedWaiting()[0].Reason)
}

// --mcp-progress reaches `askbridge mcp` as ASKBRIDGE_MCP_PROGRESS: 0 is
// none, a duration the ceiling; anything else is refused.
func TestProgressCeilingFromTheEnvironment(t *testing.T) {
	for v, want := range map[string]time.Duration{"": 0, "0": -1, "0s": -1, "2m": 2 * time.Minute} {
		t.Setenv(ProgressEnv, v)
		opts, err := OptionsFromEnv()
		require.NoError(t, err, v)
		assert.Equal(t, want, opts.ProgressFor, v)
	}
	for _, v := range []string{"soon", "-1s"} {
		t.Setenv(ProgressEnv, v)
		_, err := OptionsFromEnv()
		assert.ErrorContains(t, err, ProgressEnv, v)
	}
}

// A negative ceiling sends no progress at all.
func TestNoProgressWhenTurnedOff(t *testing.T) {
	f := startFakeBridge(t, answerAfter(300*time.Millisecond))
	cs, progress := progressClient(t, Options{Socket: f.path, ProgressEvery: 30 * time.Millisecond, ProgressFor: NoProgress(0)})
	callWithToken(t, cs, "tok")
	assert.Empty(t, progress())
}
