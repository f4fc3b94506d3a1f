package demo

import (
	"context"
	"encoding/json"
	"io"
	"sync"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/internal/askwire"
)

// fakeAskbridge stands in for askbridge and the user, so the agent is
// tested alone: the demo client prints what the agent says, and ask
// answers its _askbridge/ask calls.
type fakeAskbridge struct {
	*Client
	ask func(ctx context.Context, params json.RawMessage) (any, error)
}

func (f fakeAskbridge) HandleExtensionMethod(ctx context.Context, method string, params json.RawMessage) (any, error) {
	if method != askwire.Method {
		return nil, acp.NewMethodNotFound(method)
	}
	return f.ask(ctx, params)
}

// startAgent runs the demo agent with script s on pipes, connects f to it
// and opens a session.
func startAgent(t *testing.T, s *Script, f fakeAskbridge) (*acp.ClientSideConnection, acp.SessionId) {
	t.Helper()
	toAgentR, toAgentW := io.Pipe()
	fromAgentR, fromAgentW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- RunAgent(t.Context(), s, toAgentR, fromAgentW) }()
	t.Cleanup(func() {
		toAgentW.Close()
		assert.NoError(t, <-done)
		fromAgentW.Close()
	})
	conn := acp.NewClientSideConnection(f, toAgentW, fromAgentR)
	init, err := conn.Initialize(t.Context(), acp.InitializeRequest{ProtocolVersion: acp.ProtocolVersionNumber})
	require.NoError(t, err)
	assert.Equal(t, "askbridge-demo", init.AgentInfo.Name)
	sess, err := conn.NewSession(t.Context(), acp.NewSessionRequest{Cwd: "/", McpServers: []acp.McpServer{}})
	require.NoError(t, err)
	return conn, sess.SessionId
}

func runTurn(t *testing.T, conn *acp.ClientSideConnection, session acp.SessionId) acp.StopReason {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	res, err := conn.Prompt(ctx, acp.PromptRequest{SessionId: session, Prompt: []acp.ContentBlock{acp.TextBlock("go")}})
	require.NoError(t, err)
	return res.StopReason
}

var twoRounds = &Script{
	Intro: "Two rounds.",
	Rounds: []json.RawMessage{
		json.RawMessage(`{"questions":[{"question":"Which database?","header":"DB","options":[{"label":"Postgres"},{"label":"SQLite"}]}]}`),
		json.RawMessage(`{"questions":[{"question":"Which cache?","header":"Cache","options":[{"label":"Redis"},{"label":"None"}]}]}`),
	},
	Outro: "Got:",
}

func TestTheAgentAsksEachRoundInItsSessionUnderAToolCallOfItsOwn(t *testing.T) {
	var mu sync.Mutex
	var asked []string
	out := &syncBuffer{}
	conn, session := startAgent(t, twoRounds, fakeAskbridge{Client: &Client{Out: out}, ask: func(_ context.Context, params json.RawMessage) (any, error) {
		mu.Lock()
		defer mu.Unlock()
		asked = append(asked, string(params))
		answer := map[int]string{1: `{"Which database?":"SQLite"}`, 2: `{"Which cache?":"None"}`}[len(asked)]
		return json.RawMessage(`{"behavior":"allow","updatedInput":{"answers":` + answer + `}}`), nil
	}})
	assert.Equal(t, acp.StopReasonEndTurn, runTurn(t, conn, session))

	require.Len(t, asked, 2)
	assert.JSONEq(t, `{"questions":[{"question":"Which database?","header":"DB","options":[{"label":"Postgres"},{"label":"SQLite"}]}],"sessionId":"demo-session","toolCallId":"demo-ask-1"}`, asked[0])
	assert.JSONEq(t, `{"questions":[{"question":"Which cache?","header":"Cache","options":[{"label":"Redis"},{"label":"None"}]}],"sessionId":"demo-session","toolCallId":"demo-ask-2"}`, asked[1])
	assert.Equal(t, "agent › Two rounds.\nagent › \nGot:\n  Which database? → SQLite\n  Which cache? → None\n", out.String())
}

func TestTheAgentSaysWhyItStopped(t *testing.T) {
	out := &syncBuffer{}
	conn, session := startAgent(t, twoRounds, fakeAskbridge{Client: &Client{Out: out}, ask: func(context.Context, json.RawMessage) (any, error) {
		return nil, acp.NewInvalidParams("no")
	}})
	assert.Equal(t, acp.StopReasonEndTurn, runTurn(t, conn, session))
	assert.Contains(t, out.String(), "agent › \nAsking failed: ")
	assert.Contains(t, out.String(), "-32602")

	out = &syncBuffer{}
	conn, session = startAgent(t, twoRounds, fakeAskbridge{Client: &Client{Out: out}, ask: func(context.Context, json.RawMessage) (any, error) {
		return json.RawMessage(`{"behavior":"deny","message":"not now","interrupt":true}`), nil
	}})
	assert.Equal(t, acp.StopReasonEndTurn, runTurn(t, conn, session))
	assert.Equal(t, "agent › Two rounds.\nagent › \nYou cancelled the questions (not now), so I'll stop here.\n", out.String())
}

func TestACancelledTurnEndsCancelledAndWithdrawsTheQuestion(t *testing.T) {
	asking := make(chan struct{})
	withdrawn := make(chan struct{})
	conn, session := startAgent(t, twoRounds, fakeAskbridge{Client: &Client{Out: &syncBuffer{}}, ask: func(ctx context.Context, _ json.RawMessage) (any, error) {
		close(asking)
		<-ctx.Done() // the agent's $/cancel_request
		close(withdrawn)
		return nil, ctx.Err()
	}})
	go func() {
		<-asking
		conn.Cancel(t.Context(), acp.CancelNotification{SessionId: session})
	}()
	assert.Equal(t, acp.StopReasonCancelled, runTurn(t, conn, session))
	select {
	case <-withdrawn:
	case <-time.After(10 * time.Second):
		t.Fatal("the agent did not withdraw its question")
	}
}
