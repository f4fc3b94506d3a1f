//go:build live

package live

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/askbridge/askbridge/live/harness"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// What an agent does with its pending question when the client sends
// session/cancel. Both end the prompt with "cancelled" at once, without
// waiting for the client's answer to the question (which the client holds
// until the prompt returns, then answers as cancelled, as ACP asks);
// Claude also withdraws its elicitation/create with $/cancel_request.
func TestDirectSessionCancelWhileAsking(t *testing.T) {
	cases := []struct {
		agent     harness.Agent
		caps      string
		call      string
		method    string
		answer    string
		withdraws bool // sends $/cancel_request for the question
	}{
		{harness.Claude, harness.FormElicitation, dbQuestion, "elicitation/create", `{"action":"cancel"}`, true},
		{harness.Qwen, harness.NoFeatures, twoQuestions, "session/request_permission", `{"outcome":{"outcome":"cancelled"}}`, false},
	}
	for _, c := range cases {
		t.Run(c.agent.Name, func(t *testing.T) {
			m := model(t, c.agent.Tool, c.call)
			asked := make(chan struct{}, 1)
			promptDone := make(chan struct{})
			hold := func(json.RawMessage) (any, error) {
				asked <- struct{}{}
				select {
				case <-promptDone:
				case <-time.After(5 * time.Second):
				}
				return json.RawMessage(c.answer), nil
			}
			withdrawn := make(chan json.RawMessage, 1)
			client := harness.Client{RequestPermission: hold, Notify: func(method string, p json.RawMessage) {
				if method == "$/cancel_request" {
					withdrawn <- p
				}
			}}
			if c.method == "elicitation/create" {
				client.RequestPermission, client.Elicit = nil, hold
			}
			r := harness.Start(t, c.agent, harness.Options{ModelURL: m.URL, Client: client})
			_, err := r.Initialize(c.caps)
			require.NoError(t, err)
			sess, err := r.NewSession()
			require.NoError(t, err)
			type res struct {
				stop string
				err  error
				at   time.Time
			}
			done := make(chan res, 1)
			go func() {
				s, err := r.Prompt(sess, "Ask me.")
				done <- res{s, err, time.Now()}
				close(promptDone)
			}()
			select {
			case <-asked:
			case <-r.Ctx.Done():
				t.Fatal("never asked")
			}
			cancelled := time.Now()
			require.NoError(t, r.Cancel(sess))
			got := <-done
			require.NoError(t, got.err)
			held := got.at.Sub(cancelled)
			t.Logf("%s: stopReason %q %s after session/cancel; tool results %q", c.agent.Name, got.stop, held.Round(time.Millisecond), m.ToolResults())
			assert.Equal(t, "cancelled", got.stop)
			assert.Less(t, held, 4*time.Second, "the prompt ends without waiting for the question's answer")
			assert.Empty(t, m.Results(), "the model is not called again")
			if c.withdraws {
				select {
				case p := <-withdrawn:
					assert.JSONEq(t, `{"requestId":0}`, string(p))
				default:
					t.Error("no $/cancel_request for the pending question")
				}
			} else {
				assert.Empty(t, withdrawn)
			}
		})
	}
}
