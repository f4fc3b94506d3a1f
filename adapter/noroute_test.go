package adapter

import (
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

// untilChunk reads client-bound lines until an agent_message_chunk whose
// line contains want, failing after d.
func untilChunk(t *testing.T, h *bridgeHarness, want string, d time.Duration) string {
	t.Helper()
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		line, ok := h.Client.TryRecv(time.Until(deadline))
		if !ok {
			break
		}
		if strings.Contains(line, "agent_message_chunk") && strings.Contains(line, want) {
			return line
		}
	}
	t.Fatalf("no message in the session saying %q within %s", want, d)
	return ""
}

// --questions desk with no desk and a hub that is not there: the question
// used to wait in silence. Now the log and the session say so within
// seconds, again later, and once the hub connects, that it can be
// answered there. (Failed before: nothing was said.)
func TestNowhereToAnswerIsSaidAtOnceAndWhenARouteAppears(t *testing.T) {
	var hub atomic.Bool
	logs := &syncBuffer{}
	b := NewBridge(Options{
		Routing: Routing{Questions: QuestionsDesk},
		Logger:  slog.New(slog.NewTextHandler(logs, nil)),
		Routes: func(bool) ([]string, string) {
			if hub.Load() {
				return []string{"the hub"}, ""
			}
			return nil, "no --desk, and the hub at /wrong.sock is not connected"
		},
	})
	b.routeTiming = routeTiming{poll: 20 * time.Millisecond, remind: 300 * time.Millisecond}
	h := wrapBridge(t, b)
	h.OpenSession(t, "s1")

	start := time.Now()
	h.Agent.Send(`{"jsonrpc":"2.0","id":5,"method":"_askbridge/ask","params":{"sessionId":"s1","questions":[{"question":"Which database?","header":"Database","options":[{"label":"Postgres"},{"label":"SQLite"}]}]}}`)
	line := untilChunk(t, h, "nowhere can answer the question “Database” now: no --desk, and the hub at /wrong.sock is not connected", 2*time.Second)
	assert.Less(t, time.Since(start), 2*time.Second)
	assert.Contains(t, line, `"sessionId":"s1"`)
	assert.Contains(t, logs.String(), "nowhere can answer the question “Database” now")

	untilChunk(t, h, "still nowhere can answer", 2*time.Second) // the reminder

	hub.Store(true) // the hub connects
	untilChunk(t, h, "the question “Database” can be answered now: the hub", 2*time.Second)
	assert.Contains(t, logs.String(), "can be answered now")

	l := b.board.List()
	require.Len(t, l, 1)
	require.NoError(t, b.board.Withdraw(l[0].ID, "test over", permission.BySelf(permission.SourceClient)))
	h.AgentReply(t, "5")
}

// A set the client is asked too has a route: nothing is said.
func TestNothingIsSaidWhenTheEditorIsAsked(t *testing.T) {
	called := atomic.Int32{}
	b := NewBridge(Options{Routes: func(bool) ([]string, string) { called.Add(1); return nil, "nothing" }})
	b.routeTiming = routeTiming{poll: 10 * time.Millisecond, remind: 50 * time.Millisecond}
	h := wrapBridge(t, b)
	h.OpenSession(t, "s1")
	h.Agent.Send(`{"jsonrpc":"2.0","id":5,"method":"_askbridge/ask","params":{"sessionId":"s1","questions":[{"question":"Which database?","header":"Database","options":[{"label":"Postgres"},{"label":"SQLite"}]}]}}`)
	req, notes := h.NextRequest(t, "session/request_permission")
	for _, n := range notes {
		assert.NotContains(t, string(n.Params), "nowhere")
	}
	h.Answer(t, req, pick("Postgres"))
	h.AgentReply(t, "5")
	assert.Zero(t, called.Load())
}
