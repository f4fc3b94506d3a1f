//go:build live

package live

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/askbridge/askbridge/live/harness"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// These tests run opencode directly: its question shows up in ACP only as a
// tool_call, and is answered (or not) through its HTTP server.

// openCode starts opencode with its HTTP server on a known port behind a
// password, and returns the run and that server.
func openCode(t *testing.T, modelURL string, c harness.Client, wrap []string) (*harness.Run, harness.OpenCodeServer) {
	t.Helper()
	port, err := harness.FreePort()
	require.NoError(t, err)
	srv := harness.OpenCodeServer{Base: fmt.Sprintf("http://127.0.0.1:%d", port), Password: "live-secret"}
	r := harness.Start(t, harness.OpenCode, harness.Options{ModelURL: modelURL, Client: c, Wrap: wrap,
		Args: []string{"--port", fmt.Sprint(port), "--hostname", "127.0.0.1"},
		Env:  []string{"OPENCODE_SERVER_PASSWORD=" + srv.Password}})
	return r, srv
}

// toolCalls passes on the toolCallIds of question tool_calls.
func toolCalls(ch chan<- string) func(string, json.RawMessage) {
	return func(method string, p json.RawMessage) {
		var n struct {
			Update struct {
				SessionUpdate string `json:"sessionUpdate"`
				ToolCallID    string `json:"toolCallId"`
				Title         string `json:"title"`
			} `json:"update"`
		}
		if json.Unmarshal(p, &n) == nil && n.Update.SessionUpdate == "tool_call" && n.Update.Title == "question" {
			ch <- n.Update.ToolCallID
		}
	}
}

// openCodeDirectCase is one case of TestOpenCodeDirectQuestion.
type openCodeDirectCase struct {
	name    string
	answers [][]string // nil: reject
	cancel  bool       // session/cancel instead of an HTTP answer
	stop    string
	result  string // what the model reads; "" when the turn ends without asking it
}

var openCodeDirectCases = []openCodeDirectCase{
	{
		name:    "reply with labels",
		answers: [][]string{{"SQLite"}, {"Go", "Python"}},
		stop:    "end_turn",
		result:  `User has answered your questions: "Which database should the service use?"="SQLite", "Which languages should the service support?"="Go, Python". You can now continue with the user's answers in mind.`,
	},
	{
		name:    "reply with typed text",
		answers: [][]string{{"CockroachDB"}, {"Zig"}},
		stop:    "end_turn",
		result:  `User has answered your questions: "Which database should the service use?"="CockroachDB", "Which languages should the service support?"="Zig". You can now continue with the user's answers in mind.`,
	},
	{
		name:    "reply with nothing picked",
		answers: [][]string{{}, {}},
		stop:    "end_turn",
		result:  `User has answered your questions: "Which database should the service use?"="Unanswered", "Which languages should the service support?"="Unanswered". You can now continue with the user's answers in mind.`,
	},
	{name: "reject", stop: "end_turn"},
	{name: "session cancel", cancel: true, stop: "cancelled"},
}

func TestOpenCodeDirectQuestion(t *testing.T) {
	for _, c := range openCodeDirectCases {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			m := model(t, harness.OpenCode.Tool, openCodeQuestions)
			calls := make(chan string, 4)
			r, srv := openCode(t, m.URL, harness.Client{Notify: toolCalls(calls)}, nil)
			_, err := r.Initialize(harness.NoFeatures)
			require.NoError(t, err)
			sess, err := r.NewSession()
			require.NoError(t, err)
			type res struct {
				stop string
				err  error
			}
			done := make(chan res, 1)
			go func() { s, err := r.Prompt(sess, "Ask me about the service."); done <- res{s, err} }()
			var callID string
			select {
			case callID = <-calls:
			case <-r.Ctx.Done():
				t.Fatal("no question tool_call")
			}
			ctx, cancel := context.WithTimeout(r.Ctx, 30*time.Second)
			defer cancel()
			q, err := srv.WaitPending(ctx, r.Home, callID)
			require.NoError(t, err)
			t.Logf("pending question %s (session %s, call %s): %s", q.ID, q.SessionID, q.Tool.CallID, q.Questions)
			assert.Equal(t, sess, q.SessionID, "the HTTP question names the ACP session id")
			switch {
			case c.cancel:
				require.NoError(t, r.Cancel(sess))
			case c.answers == nil:
				code, body, err := srv.Reject(ctx, q.ID)
				require.NoError(t, err)
				t.Logf("reject: %d %s", code, body)
			default:
				code, body, err := srv.Reply(ctx, q.ID, c.answers)
				require.NoError(t, err)
				t.Logf("reply: %d %s", code, body)
				assert.Equal(t, 200, code)
			}
			got := <-done
			require.NoError(t, got.err)
			assert.Equal(t, c.stop, got.stop)
			left, err := srv.Pending(ctx, r.Home)
			require.NoError(t, err)
			if c.cancel {
				// session/cancel aborts the tool but leaves its question
				// listed: whoever asked it must reject it.
				assert.Len(t, left, 1, "the question is still pending after session/cancel")
			} else {
				assert.Empty(t, left, "nothing pending after the answer")
			}
			for i, res := range m.Results() {
				t.Logf("tool result %d: %q", i, res.Text)
			}
			if c.result != "" {
				require.Len(t, m.Results(), 1)
				assert.Equal(t, c.result, m.Results()[0].Text)
			}
		})
	}
}

func TestOpenCodeDirectServerNeedsThePassword(t *testing.T) {
	m := model(t, harness.OpenCode.Tool)
	r, srv := openCode(t, m.URL, harness.Client{}, nil)
	ctx, cancel := context.WithTimeout(r.Ctx, 30*time.Second)
	defer cancel()
	// The server is not listening before initialize; it comes up while
	// initialize is handled. Poll with a short timeout per request.
	time.Sleep(500 * time.Millisecond)
	_, _, err := srv.Get(ctx, "/question")
	assert.ErrorContains(t, err, "connection refused", "nothing listens before initialize")
	start := time.Now()
	initialized := make(chan time.Duration, 1)
	go func() {
		_, err := r.Initialize(harness.NoFeatures)
		assert.NoError(t, err)
		initialized <- time.Since(start)
	}()
	var errs []string
	for {
		try, cancelTry := context.WithTimeout(ctx, 500*time.Millisecond)
		code, _, err := srv.Get(try, "/question")
		cancelTry()
		if err == nil && code == 200 {
			break
		}
		if err != nil && (len(errs) == 0 || errs[len(errs)-1] != err.Error()) {
			errs = append(errs, err.Error())
		}
		require.NoError(t, ctx.Err(), "the HTTP server never answered: %q", errs)
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("the HTTP server answered %s after initialize was sent; initialize answered after %s; errors before: %q",
		time.Since(start).Round(time.Millisecond), (<-initialized).Round(time.Millisecond), errs)
	code, body, err := srv.Get(ctx, "/question")
	require.NoError(t, err)
	require.Equal(t, 200, code, "the HTTP server answers once initialize has been answered")
	code, body, err = harness.OpenCodeServer{Base: srv.Base}.Get(ctx, "/question")
	require.NoError(t, err)
	t.Logf("without the password: %d %s", code, body)
	assert.Equal(t, 401, code)
	code, body, err = harness.OpenCodeServer{Base: srv.Base, Password: "wrong"}.Get(ctx, "/question")
	require.NoError(t, err)
	assert.Equal(t, 401, code)
	code, body, err = srv.Get(ctx, "/question")
	require.NoError(t, err)
	assert.Equal(t, 200, code)
	assert.Equal(t, "[]", strings.TrimSpace(string(body)))
}
