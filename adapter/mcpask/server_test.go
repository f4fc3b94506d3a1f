package mcpask

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/askbridge/askbridge/permission"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/sourcegraph/jsonrpc2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// answering returns a fake askbridge answer that picks labels (or types).
func answering(custom string, labels ...string) func(context.Context, *jsonrpc2.Conn, askParams) (any, error) {
	return func(_ context.Context, _ *jsonrpc2.Conn, p askParams) (any, error) {
		return pick(p, custom, labels...), nil
	}
}

// structured decodes the result's structuredContent, after checking it
// against the tool's output schema, as a client that validates would.
func structured(t *testing.T, res *mcp.CallToolResult) Answers {
	t.Helper()
	raw, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	schemaJSON, err := json.Marshal(outputSchema())
	require.NoError(t, err)
	var s jsonschema.Schema
	require.NoError(t, json.Unmarshal(schemaJSON, &s))
	resolved, err := s.Resolve(nil)
	require.NoError(t, err)
	var v any
	require.NoError(t, json.Unmarshal(raw, &v))
	require.NoError(t, resolved.Validate(v), "structuredContent %s", raw)
	var out Answers
	require.NoError(t, json.Unmarshal(raw, &out))
	return out
}

func TestAnswerIsOneLineAndStructured(t *testing.T) {
	f := startFakeBridge(t, answering("", "Redis"))
	cs := connect(t, Options{Socket: f.path, Tag: "tag-1"})
	res := callAsk(t, cs, dbQuestion)
	assert.False(t, res.IsError)
	assert.Equal(t, `"Which database?"="Redis"`, text(t, res))
	assert.Equal(t, Answers{Answers: map[string]Answer{"Which database?": {Answer: "Redis", Labels: []string{"Redis"}}}}, structured(t, res))

	saw := f.saw()
	require.Len(t, saw, 1)
	assert.Equal(t, "result", saw[0].Format)
	assert.Equal(t, "tag-1", saw[0].MCPTag)
	assert.Equal(t, "Which database?", saw[0].Questions[0].Question)
	assert.Equal(t, []permission.Option{{Label: "Postgres", Description: "relational"}, {Label: "Redis", Description: "in memory"}}, saw[0].Questions[0].Options)
}

func TestNoTagIsSentWhenNoneIsSet(t *testing.T) {
	f := startFakeBridge(t, answering("", "Postgres"))
	cs := connect(t, Options{Socket: f.path})
	callAsk(t, cs, dbQuestion)
	var raw map[string]any
	require.NoError(t, json.Unmarshal(f.saw()[0].Raw, &raw))
	assert.NotContains(t, raw, "mcpTag")
	assert.Equal(t, "result", raw["format"])
}

func TestTypedAnswerIsMarkedAsTyped(t *testing.T) {
	f := startFakeBridge(t, answering("CockroachDB"))
	cs := connect(t, Options{Socket: f.path})
	res := callAsk(t, cs, dbQuestion)
	assert.False(t, res.IsError)
	assert.Equal(t, `"Which database?"="CockroachDB" (typed by the user)`, text(t, res))
	assert.Equal(t, Answer{Answer: "CockroachDB", Typed: true}, structured(t, res).Answers["Which database?"])
}

func TestMultiSelectIsJoined(t *testing.T) {
	f := startFakeBridge(t, answering("", "Auth", "Billing"))
	cs := connect(t, Options{Socket: f.path})
	res := callAsk(t, cs, featuresQuestion)
	assert.Equal(t, `"Which features?"="Auth, Billing"`, text(t, res))
	assert.Equal(t, Answer{Answer: "Auth, Billing", Labels: []string{"Auth", "Billing"}}, structured(t, res).Answers["Which features?"])
	assert.True(t, f.saw()[0].Questions[0].Kind.Many)
}

func TestMultiSelectWithTypedTextNamesWhatWasTyped(t *testing.T) {
	f := startFakeBridge(t, answering("Webhooks", "Auth"))
	cs := connect(t, Options{Socket: f.path})
	res := callAsk(t, cs, featuresQuestion)
	assert.Equal(t, `"Which features?"="Auth, Webhooks" ("Webhooks" typed by the user)`, text(t, res))
	assert.Equal(t, Answer{Answer: "Auth, Webhooks", Labels: []string{"Auth"}, Typed: true}, structured(t, res).Answers["Which features?"])
}

func TestOtherWithoutTextTellsTheModelToAskInTheChat(t *testing.T) {
	f := startFakeBridge(t, func(_ context.Context, _ *jsonrpc2.Conn, p askParams) (any, error) {
		r := pick(p, "")
		r.Answers[0].Answer.Other = true
		return r, nil
	})
	cs := connect(t, Options{Socket: f.path})
	res := callAsk(t, cs, dbQuestion)
	assert.Equal(t, `"Which database?"="Other" (`+permission.OtherWithoutText+`)`, text(t, res))
	assert.Equal(t, Answer{Answer: permission.OtherWithoutText}, structured(t, res).Answers["Which database?"])
}

func TestEveryAnswerOfASetWithAFollowUpHasItsLine(t *testing.T) {
	input := `{"questions":[{"question":"Which auth?","header":"Auth","options":[{"label":"OAuth"},{"label":"None"}],"followUps":{"OAuth":[{"question":"Which provider?","header":"Provider","options":[{"label":"GitHub"},{"label":"Google"}]}]}},{"question":"Which database?","header":"Database","options":[{"label":"Postgres"},{"label":"Redis"}]}]}`
	f := startFakeBridge(t, func(_ context.Context, _ *jsonrpc2.Conn, p askParams) (any, error) {
		auth, db := p.Questions[0], p.Questions[1]
		provider := auth.FollowUps["OAuth"][0]
		return permission.Result{Answers: []permission.Answered{
			{Question: auth, Answer: permission.Answer{Labels: []string{"OAuth"}}, Path: "questions[0]", Index: 0},
			{Question: provider, Answer: permission.Answer{Labels: []string{"GitHub"}}, Path: `questions[0].followUps["OAuth"][0]`, Index: -1},
			{Question: db, Answer: permission.Answer{Other: true, Custom: "SQLite"}, Path: "questions[1]", Index: 1},
		}}, nil
	})
	cs := connect(t, Options{Socket: f.path})
	res := callAsk(t, cs, input)
	assert.Equal(t, `"Which auth?"="OAuth"`+"\n"+`"Which provider?"="GitHub"`+"\n"+`"Which database?"="SQLite" (typed by the user)`, text(t, res))
	assert.Len(t, structured(t, res).Answers, 3)
}

func TestCancelIsAnErrorResultSayingSo(t *testing.T) {
	f := startFakeBridge(t, func(context.Context, *jsonrpc2.Conn, askParams) (any, error) {
		return permission.Result{Cancelled: true, Reason: "the user dismissed the question"}, nil
	})
	cs := connect(t, Options{Socket: f.path})
	res := callAsk(t, cs, dbQuestion)
	assert.True(t, res.IsError)
	assert.Contains(t, text(t, res), "The user cancelled the question without answering.")
	assert.Nil(t, res.StructuredContent)
}

func TestInvalidInputListsEveryViolationAndAsksNothing(t *testing.T) {
	f := startFakeBridge(t, answering("", "a"))
	cs := connect(t, Options{Socket: f.path, Limits: permission.Limits{MaxQuestions: 4, MaxOptions: 3, HeaderMax: 12, QuestionMax: 500}})
	res := callAsk(t, cs, `{"questions":[{"question":"","header":"A header too long","options":[{"label":"a"},{"label":"a"}]},{"question":"Q","header":"H","options":[{"label":"x"},{"label":"y"},{"label":"z"},{"label":"w"}]}]}`)
	assert.True(t, res.IsError)
	assert.Equal(t, "Invalid questions, nothing was asked. Fix these and call ask_user_question again:\n"+
		"- questions[0].question: String must contain at least 1 character(s)\n"+
		"- questions[0].header: String must contain at most 12 character(s)\n"+
		"- questions[0].options[1].label: duplicate label \"a\"\n"+
		"- questions[1].options: must have 2-3 items", text(t, res))
	assert.Empty(t, f.saw(), "an invalid set is not asked")

	for _, input := range []string{`{}`, `{"questions":"Which?"}`, `{"questions":[{"question":"Q?","header":"H","options":[{"label":1},{"label":"b"}]}]}`} {
		res := callAsk(t, cs, input)
		assert.True(t, res.IsError, input)
		assert.Contains(t, text(t, res), "Invalid questions, nothing was asked.", input)
		assert.Contains(t, text(t, res), "\n- questions", input)
	}
	assert.Empty(t, f.saw())
}

func TestAskbridgesOwnViolationsAreListed(t *testing.T) {
	// askbridge's limits may be stricter than the server's environment.
	f := startFakeBridge(t, func(context.Context, *jsonrpc2.Conn, askParams) (any, error) {
		e := &jsonrpc2.Error{Code: codeInvalidParams, Message: "askbridge: invalid questions"}
		e.SetError(map[string]any{"violations": []string{"questions[0].options: must have 2-1 items", "questions[0].header: too long"}})
		return nil, e
	})
	cs := connect(t, Options{Socket: f.path})
	res := callAsk(t, cs, dbQuestion)
	assert.True(t, res.IsError)
	assert.Equal(t, "Invalid questions, nothing was asked. Fix these and call ask_user_question again:\n- questions[0].options: must have 2-1 items\n- questions[0].header: too long", text(t, res))
}

func TestAskbridgesRefusalIsPassedOn(t *testing.T) {
	f := startFakeBridge(t, func(context.Context, *jsonrpc2.Conn, askParams) (any, error) {
		return nil, &jsonrpc2.Error{Code: -32603, Message: "question limit of 3 reached in this turn; continue with what you know or ask in the chat"}
	})
	cs := connect(t, Options{Socket: f.path})
	res := callAsk(t, cs, dbQuestion)
	assert.True(t, res.IsError)
	assert.Equal(t, "The question could not be asked: askbridge did not ask: question limit of 3 reached in this turn; continue with what you know or ask in the chat.", text(t, res))
}

func TestUnreachableAskbridgeFailsAtOnce(t *testing.T) {
	for name, socket := range map[string]string{"no socket set": "", "nothing listening": "/nonexistent/askbridge/ask.sock"} {
		t.Run(name, func(t *testing.T) {
			cs := connect(t, Options{Socket: socket})
			start := time.Now()
			res := callAsk(t, cs, dbQuestion)
			assert.Less(t, time.Since(start), time.Second)
			assert.True(t, res.IsError)
			assert.Contains(t, text(t, res), "The question could not be asked: askbridge is not reachable")
			assert.True(t, strings.HasSuffix(text(t, res), "Ask the user in the chat instead."), text(t, res))
			if socket == "" {
				assert.Contains(t, text(t, res), "ASKBRIDGE_SOCKET is not set")
			} else {
				assert.Contains(t, text(t, res), socket)
			}
		})
	}
}

func TestSocketClosingMidQuestionIsAnErrorResult(t *testing.T) {
	f := startFakeBridge(t, func(_ context.Context, conn *jsonrpc2.Conn, _ askParams) (any, error) {
		conn.Close() // askbridge exits while the question is open
		return nil, nil
	})
	cs := connect(t, Options{Socket: f.path})
	res := callAsk(t, cs, dbQuestion)
	assert.True(t, res.IsError)
	assert.Equal(t, "The question could not be asked: askbridge closed the connection before the user answered. Ask the user in the chat instead.", text(t, res))
}

// A cancelled call closes its connection to askbridge (after saying the
// host stopped waiting: progress_test.go).
func TestCancelledCallClosesItsConnection(t *testing.T) {
	asked := make(chan struct{})
	f := startFakeBridge(t, func(ctx context.Context, _ *jsonrpc2.Conn, _ askParams) (any, error) {
		close(asked)
		<-ctx.Done() // the user never answers
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
	cancel()
	assert.Error(t, <-errc)
	select {
	case <-f.gone:
	case <-time.After(5 * time.Second):
		t.Fatal("the server kept its connection to askbridge after the call was cancelled")
	}
}

// A question nobody answered in time is not the user's cancel: the model
// gets a result, not an error, telling it to go on.
func TestTimeoutIsAResultTellingTheModelToGoOn(t *testing.T) {
	f := startFakeBridge(t, func(context.Context, *jsonrpc2.Conn, askParams) (any, error) {
		return permission.Result{Cancelled: true, Reason: permission.ReasonTimeout}, nil
	})
	cs := connect(t, Options{Socket: f.path})
	res := callAsk(t, cs, dbQuestion)
	assert.False(t, res.IsError)
	assert.Equal(t, permission.NoAnswerInTime, text(t, res))
	assert.Empty(t, structured(t, res).Answers)
}
