package adapter

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter/mcpask"
	"github.com/askbridge/askbridge/internal/askwire"
	"github.com/askbridge/askbridge/testkit/testenv"
)

// lateHarness is a bridge with its ask socket open, and askbridge's MCP
// ask tool in process as an agent's MCP host runs it.
type lateHarness struct {
	*bridgeHarness
	mcp *mcp.ClientSession
}

func newLateHarness(t *testing.T, opts Options) *lateHarness {
	t.Helper()
	testenv.SkipUnderWine(t, testenv.NoUnixSockets)
	logs := &syncBuffer{}
	opts.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	t.Cleanup(func() {
		if t.Failed() {
			t.Log("askbridge's log:\n" + logs.String())
		}
	})
	b := NewBridge(opts)
	env, err := b.Listen()
	require.NoError(t, err)
	h := wrapBridge(t, b)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	st, ct := mcp.NewInMemoryTransports()
	socket := strings.TrimPrefix(env[0], askwire.SocketEnv+"=")
	ss, err := mcpask.New(mcpask.Options{Socket: socket}).Connect(ctx, st, nil)
	require.NoError(t, err)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "host", Version: "0"}, nil).Connect(ctx, ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return &lateHarness{bridgeHarness: h, mcp: cs}
}

const lateQuestion = `{"questions":[{"question":"Which database?","header":"Database","options":[{"label":"Postgres"},{"label":"Redis"}]}]}`

// askAndGiveUp has the tool asked in session s1 (its turn p1 running) and
// returns the client's permission request once the host has ended the
// call, as Copilot's and Gemini's hosts do after their timeouts.
func (h *lateHarness) askAndGiveUp(t *testing.T) rpc {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := h.mcp.CallTool(ctx, &mcp.CallToolParams{Name: mcpask.ToolName, Arguments: json.RawMessage(lateQuestion)})
		errc <- err
	}()
	req, _ := h.NextRequest(t, "session/request_permission")
	cancel() // the host's timeout: notifications/cancelled
	require.Error(t, <-errc)
	waitFor(t, "the card says the agent stopped waiting", func() bool {
		l := h.bridge.board.List()
		return len(l) == 1 && l[0].Note != ""
	})
	return req
}

// waitFor polls cond until it holds, failing the test after 5 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out waiting: " + what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// untilUpdate reads client-bound lines until a session/update whose text
// contains want.
func (h *lateHarness) untilUpdate(t *testing.T, want string) {
	t.Helper()
	for {
		line := h.Client.Recv()
		if strings.Contains(line, `"session/update"`) && strings.Contains(line, "agent_message_chunk") && strings.Contains(line, want) {
			return
		}
	}
}

// An answer given after the host gave up is not lost: the card says the
// agent stopped waiting and stays answerable, and the answer reaches the
// model at the start of the user's next prompt, the client shown what was
// added. Before, the ended call withdrew the question and the answer went
// nowhere.
func TestAnswerAfterTheHostGaveUpReachesTheNextPrompt(t *testing.T) {
	h := newLateHarness(t, Options{})
	h.OpenSession(t, "s1")
	req := h.askAndGiveUp(t)
	assert.Equal(t, NoteNextPrompt, h.bridge.board.List()[0].Note)
	h.untilUpdate(t, "the question “Database”: the agent stopped waiting; your answer will reach it with your next prompt")

	h.Answer(t, req, pick("Redis"))
	waitFor(t, "the answer is kept for the next prompt", func() bool {
		return h.bridge.late.Late("s1") == 1
	})
	h.Agent.Send(`{"jsonrpc":"2.0","id":"p1","result":{"stopReason":"end_turn"}}`)
	h.Client.Send(`{"jsonrpc":"2.0","id":"p2","method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"go on"}]}}`)
	var got rpc
	for got.Method != "session/prompt" {
		got = decode(t, h.Agent.Recv())
	}
	text := promptText(t, got)
	require.Len(t, text, 2)
	assert.Contains(t, text[0], `"Which database?"="Redis"`)
	assert.Contains(t, text[0], "ask_user_question call had ended")
	assert.Equal(t, "go on", text[1])
	h.untilUpdate(t, `\"Which database?\"=\"Redis\"`)

	// Delivered once: the prompt after gets nothing added.
	h.Agent.Send(`{"jsonrpc":"2.0","id":"p2","result":{"stopReason":"end_turn"}}`)
	h.Client.Send(`{"jsonrpc":"2.0","id":"p3","method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"again"}]}}`)
	for got = decode(t, h.Agent.Recv()); got.Method != "session/prompt"; got = decode(t, h.Agent.Recv()) {
	}
	assert.Equal(t, []string{"again"}, promptText(t, got))
}

// With LatePrompt the answer goes to the agent as a prompt of askbridge's
// own, but only once the session is idle; a prompt the user sends while it
// runs waits for it to end and is answered under its own id.
func TestLateAnswerAsAPromptOfItsOwnWaitsForTheTurn(t *testing.T) {
	h := newLateHarness(t, Options{LateAnswers: LatePrompt})
	h.OpenSession(t, "s1") // turn p1 runs
	req := h.askAndGiveUp(t)
	assert.Equal(t, NotePrompt, h.bridge.board.List()[0].Note)
	h.Answer(t, req, pick("Postgres"))
	waitFor(t, "the answer is kept", func() bool {
		return h.bridge.late.Late("s1") == 1
	})
	if line, ok := h.Agent.TryRecv(300 * time.Millisecond); ok && strings.Contains(line, "session/prompt") {
		t.Fatalf("a prompt during the user's turn: %s", line)
	}

	h.Agent.Send(`{"jsonrpc":"2.0","id":"p1","result":{"stopReason":"end_turn"}}`)
	var own rpc
	for own.Method != "session/prompt" {
		own = decode(t, h.Agent.Recv())
	}
	assert.Contains(t, promptText(t, own)[0], `"Which database?"="Postgres"`)
	h.untilUpdate(t, "as a prompt")

	h.Client.Send(`{"jsonrpc":"2.0","id":"p2","method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"next"}]}}`)
	if line, ok := h.Agent.TryRecv(300 * time.Millisecond); ok {
		t.Fatalf("the user's prompt overlapped askbridge's: %s", line)
	}
	h.Agent.Send(`{"jsonrpc":"2.0","id":` + string(own.ID) + `,"result":{"stopReason":"end_turn"}}`)
	user := decode(t, h.Agent.Recv())
	require.Equal(t, "session/prompt", user.Method)
	assert.Equal(t, []string{"next"}, promptText(t, user))
	h.Agent.Send(`{"jsonrpc":"2.0","id":` + string(user.ID) + `,"result":{"stopReason":"end_turn"}}`)
	for {
		m := decode(t, h.Client.Recv())
		if string(m.ID) == `"p2"` {
			assert.JSONEq(t, `{"stopReason":"end_turn"}`, string(m.Result))
			break
		}
	}
}

// A set kept for a late answer ends as askbridge stops: shutdown does not
// wait on it.
func TestASetKeptForALateAnswerEndsOnShutdown(t *testing.T) {
	h := newLateHarness(t, Options{})
	h.OpenSession(t, "s1")
	h.askAndGiveUp(t)
	start := time.Now()
	h.bridge.Drain(errShutdown, 5*time.Second)
	assert.Less(t, time.Since(start), 2*time.Second, "Drain waited for the kept set")
	assert.Empty(t, h.bridge.board.List())
}

// A note (a denial's reason) and a late answer waiting for the same
// session go in one rewrite of the user's next prompt, from the one queue:
// the note first, then the late answer, then the user's own text; the
// prompt after gets neither again.
func TestNotesAndLateAnswersShareOneQueue(t *testing.T) {
	h := newLateHarness(t, Options{})
	h.OpenSession(t, "s1")
	req := h.askAndGiveUp(t)
	h.Answer(t, req, pick("Redis"))
	waitFor(t, "the answer is kept for the next prompt", func() bool {
		return h.bridge.late.Late("s1") == 1
	})
	h.bridge.NextPrompt("s1", "[askbridge] a note")
	h.Agent.Send(`{"jsonrpc":"2.0","id":"p1","result":{"stopReason":"end_turn"}}`)
	h.Client.Send(`{"jsonrpc":"2.0","id":"p2","method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"go on"}]}}`)
	var got rpc
	for got.Method != "session/prompt" {
		got = decode(t, h.Agent.Recv())
	}
	text := promptText(t, got)
	require.Len(t, text, 3)
	assert.Equal(t, "[askbridge] a note", text[0])
	assert.Contains(t, text[1], `"Which database?"="Redis"`)
	assert.Equal(t, "go on", text[2])

	h.Agent.Send(`{"jsonrpc":"2.0","id":"p2","result":{"stopReason":"end_turn"}}`)
	h.Client.Send(`{"jsonrpc":"2.0","id":"p3","method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"again"}]}}`)
	for got = decode(t, h.Agent.Recv()); got.Method != "session/prompt"; got = decode(t, h.Agent.Recv()) {
	}
	assert.Equal(t, []string{"again"}, promptText(t, got))
}
