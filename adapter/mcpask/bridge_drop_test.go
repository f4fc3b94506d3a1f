package mcpask_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/adapter/adaptertest"
	"github.com/askbridge/askbridge/adapter/mcpask"
	"github.com/askbridge/askbridge/adapter/mcpask/mcphttptest"
	"github.com/askbridge/askbridge/adapter/relay/relaytest"
	"github.com/askbridge/askbridge/internal/askwire"
	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/testkit/testenv"
)

const lateQuestion = `{"questions":[{"question":"Which database?","header":"Database","options":[{"label":"Postgres"},{"label":"Redis"}]}]}`

// An MCP host whose HTTP stream for the ask tool is dropped (its
// connection closes) without notifications/cancelled: the card says the
// agent stopped waiting, and the answer given then reaches the session's
// next prompt. Before, the call ran on, the answer was taken and written to
// a stream nobody read, and it reached neither the tool call nor the next
// prompt. (TestHTTPDroppedStreamTellsAskbridgeTheHostStoppedWaiting is the
// server's half; this is the whole way, through the bridge.)
func TestAnswerAfterTheHostDroppedItsStreamReachesTheNextPrompt(t *testing.T) {
	testenv.SkipUnderWine(t, testenv.NoUnixSockets)
	board := permission.NewBoard()
	var log relaytest.Buffer
	b := adapter.NewBridge(adapter.Options{Limits: permission.DefaultLimits(), Board: board,
		Logger: slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelInfo}))})
	env, err := b.Listen()
	require.NoError(t, err)
	h := adaptertest.Wrap(t, b)
	srv := mcpask.NewHTTP(strings.TrimPrefix(env[0], askwire.SocketEnv+"="), permission.DefaultLimits(), nil)
	t.Cleanup(func() { srv.Close() })
	url, token, err := srv.Add("tag-drop")
	require.NoError(t, err)
	h.OpenSession(t, "s1") // turn p1 runs

	bound, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	host, err := mcphttptest.Open(bound, url, token)
	require.NoError(t, err)
	drop := host.CallAndDrop(bound, lateQuestion)
	req, _ := h.NextRequest(t, "session/request_permission")
	drop() // the connection closes; no notifications/cancelled
	require.Eventually(t, func() bool {
		l := board.List()
		return len(l) == 1 && l[0].Note == adapter.NoteNextPrompt
	}, 5*time.Second, 10*time.Millisecond, "the card says the agent stopped waiting")

	h.Answer(t, req, adaptertest.Pick("Redis"))
	require.Eventually(t, func() bool {
		return strings.Contains(log.String(), "a late answer waits for the agent")
	}, 5*time.Second, 10*time.Millisecond, "the answer is kept for the next prompt")
	h.Agent.Send(`{"jsonrpc":"2.0","id":"p1","result":{"stopReason":"end_turn"}}`)
	got := h.Prompt(t, "p2", "s1", "go on")
	require.Len(t, got, 2)
	assert.Contains(t, got[0], `"Which database?"="Redis"`)
	assert.Equal(t, "go on", got[1])
}
