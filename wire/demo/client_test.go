package demo

import (
	"context"
	"io"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/route/prompt"
)

// askAbout is a permission request about tool call id, as askbridge sends
// one: the question in the tool call, its kind in _meta.
func askAbout(id acp.ToolCallId, multi bool, labels ...string) acp.RequestPermissionRequest {
	req := acp.RequestPermissionRequest{
		SessionId: "s1",
		ToolCall:  acp.ToolCallUpdate{ToolCallId: id, Title: acp.Ptr("Langs (1/1)")},
		Meta:      map[string]any{"askUserQuestion": map[string]any{"multiSelect": multi}},
	}
	for _, l := range labels {
		req.Options = append(req.Options, acp.PermissionOption{Kind: acp.PermissionOptionKindAllowOnce, Name: l, OptionId: acp.PermissionOptionId(l)})
	}
	return req
}

func TestAPermissionRequestWaitsForItsToolCallToBeShown(t *testing.T) {
	u := &user{out: &syncBuffer{}, replies: []prompt.Reply{{IDs: []string{"Go"}}}}
	c := &Client{Prompter: u, Out: u.out}
	// The request overtakes the notifications sent before it, as it may
	// when the SDK answers it on a goroutine of its own.
	answered := make(chan acp.RequestPermissionResponse, 1)
	go func() {
		res, err := c.RequestPermission(t.Context(), askAbout("call-1", false, "Go", "Rust"))
		assert.NoError(t, err)
		answered <- res
	}()
	time.Sleep(50 * time.Millisecond)
	require.NoError(t, c.SessionUpdate(t.Context(), acp.SessionNotification{SessionId: "s1", Update: acp.UpdateAgentMessageText("Let me ask.")}))
	require.NoError(t, c.SessionUpdate(t.Context(), acp.SessionNotification{SessionId: "s1", Update: acp.StartToolCall("call-1", "Langs")}))
	res := <-answered
	require.NotNil(t, res.Outcome.Selected)
	assert.Equal(t, acp.PermissionOptionId("Go"), res.Outcome.Selected.OptionId)
	require.Len(t, u.screens, 1)
	assert.Equal(t, "agent › Let me ask.\n", u.screens[0], "the agent's message is on the screen before the question")
}

func TestAPermissionRequestAboutAToolCallNeverShownIsStillAsked(t *testing.T) {
	u := &user{out: &syncBuffer{}, replies: []prompt.Reply{{IDs: []string{"Rust"}}}}
	c := &Client{Prompter: u, Out: u.out}
	start := time.Now()
	res, err := c.RequestPermission(t.Context(), askAbout("never-shown", false, "Go", "Rust"))
	require.NoError(t, err)
	assert.GreaterOrEqual(t, time.Since(start), toolCallWait)
	require.NotNil(t, res.Outcome.Selected)
	assert.Equal(t, acp.PermissionOptionId("Rust"), res.Outcome.Selected.OptionId)
}

func TestTheUsersAnswerReachesTheAgentWithItsMeta(t *testing.T) {
	u := &user{out: &syncBuffer{}, replies: []prompt.Reply{{IDs: []string{"Go", "C"}}, {IDs: []string{"__other__"}, Custom: "Zig"}}}
	c := &Client{Prompter: u, Out: u.out}
	c.SessionUpdate(t.Context(), acp.SessionNotification{SessionId: "s1", Update: acp.StartToolCall("call-1", "Langs")})

	res, err := c.RequestPermission(t.Context(), askAbout("call-1", true, "Go", "Rust", "C", "__other__"))
	require.NoError(t, err)
	require.True(t, u.asked[0].Multi, "the prompter saw _meta.askUserQuestion.multiSelect")
	require.NotNil(t, res.Outcome.Selected)
	assert.Equal(t, []any{"Go", "C"}, res.Outcome.Selected.Meta["selectedOptionIds"])

	res, err = c.RequestPermission(t.Context(), askAbout("call-1", false, "Go", "__other__"))
	require.NoError(t, err)
	require.NotNil(t, res.Outcome.Selected)
	assert.Equal(t, acp.PermissionOptionId("__other__"), res.Outcome.Selected.OptionId)
	assert.Equal(t, "Zig", res.Outcome.Selected.Meta["customText"])

	res, err = c.RequestPermission(t.Context(), askAbout("call-1", false, "Go", "Rust"))
	require.NoError(t, err)
	assert.NotNil(t, res.Outcome.Cancelled, "the user cancelled: replies ran out")
}

func TestAPermissionRequestWithdrawnBeforeItsToolCallEndsWithoutAsking(t *testing.T) {
	u := &user{out: &syncBuffer{}}
	c := &Client{Prompter: u, Out: u.out}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := c.RequestPermission(ctx, askAbout("call-1", false, "Go", "Rust"))
	assert.ErrorIs(t, err, context.Canceled)
	assert.Empty(t, u.asked)
}

func TestRunSaysWhichCallAnEndedContextStopped(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	r, w := io.Pipe()
	defer w.Close()
	c := &Client{Prompter: &user{out: &syncBuffer{}}, Out: io.Discard}
	err := c.Run(ctx, "hi", r, io.Discard)
	assert.EqualError(t, err, "initialize: context canceled")
}
