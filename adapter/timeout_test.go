package adapter

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

// Each dialect's answer for a question nobody answered in time tells the
// model so, and is not its cancel.
func TestATimeoutIsEachDialectsNoAnswerInTime(t *testing.T) {
	ask := `{"jsonrpc":"2.0","id":8,"method":"_askbridge/ask","params":{"sessionId":"s1","questions":[{"question":"Which?","header":"Pick","options":[{"label":"A"},{"label":"B"}]}]}}`
	for name, tc := range map[string]struct{ send, id, want string }{
		"_askbridge/ask": {ask, "8", `{"behavior":"deny","message":"` + permission.NoAnswerInTime + `","interrupt":false}`},
		"qwen":           {qwenAsk, "77", `{"outcome":{"outcome":"selected","optionId":"proceed_once"},"answers":{"0":"` + permission.NoAnswerInTime + `","1":"` + permission.NoAnswerInTime + `"}}`},
		"elicitation":    {claudeSingle, "41", `{"action":"decline"}`},
	} {
		t.Run(name, func(t *testing.T) {
			h := newBridgeHarness(t, Options{Advertise: true, QuestionTimeout: 150 * time.Millisecond})
			h.OpenSession(t, "s1")
			h.Agent.Send(tc.send)
			req, _ := h.NextRequest(t, "session/request_permission")
			assert.Contains(t, string(req.Params), "Answer by ", "the question says until when it can be answered")
			assert.JSONEq(t, tc.want, string(h.AgentReply(t, tc.id).Result))
		})
	}
}

// Holding a set (someone is answering at the desk) moves its deadline, so
// it does not time out under the user's fingers; a warning goes out before
// it expires.
func TestAHeldQuestionOutlivesItsTimeout(t *testing.T) {
	board := permission.NewBoard()
	h := newBridgeHarness(t, Options{Advertise: true, Board: board, QuestionTimeout: 400 * time.Millisecond})
	events := board.Subscribe(t.Context())
	h.OpenSession(t, "s1")
	h.Agent.Send(claudeSingle)
	req, _ := h.NextRequest(t, "session/request_permission")
	pending := board.List()
	require.Len(t, pending, 1)
	require.NotNil(t, pending[0].Deadline)
	held, err := board.Hold(pending[0].ID, 1500*time.Millisecond)
	require.NoError(t, err)
	assert.True(t, held.After(*pending[0].Deadline))

	var saw []string
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	start := time.Now()
	reply := make(chan string, 1)
	go func() { reply <- string(h.AgentReply(t, "41").Result) }()
	for {
		select {
		case ev := <-events:
			saw = append(saw, string(ev.Type))
			continue
		case r := <-reply:
			assert.JSONEq(t, `{"action":"decline"}`, r)
			assert.Greater(t, time.Since(start), time.Second, "the hold kept the question open past its 400ms timeout")
		case <-ctx.Done():
			t.Fatal("no reply")
		}
		break
	}
	assert.Contains(t, strings.Join(saw, " "), permission.EventExpiring, "a last call went out before it expired")
	_ = req
}
