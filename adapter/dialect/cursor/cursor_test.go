package cursor

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/permission"
)

// cursorDB is a cursor/ask_question as Cursor documents it: one question,
// option ids distinct from labels.
const cursorDB = `{"toolCallId":"tc1","title":"Storage","questions":[{"id":"db","prompt":"Which database?","options":[{"id":"pg","label":"Postgres"},{"id":"lite","label":"SQLite"}]}]}`

func decodeCursorAsk(t *testing.T, params string) cursorAsk {
	t.Helper()
	var p cursorAsk
	require.NoError(t, json.Unmarshal([]byte(params), &p))
	return p
}

func TestCursorAskDecodesToQuestionsHeadedByTitleOrPrompt(t *testing.T) {
	p := decodeCursorAsk(t, `{"toolCallId":"tc1","questions":[
		{"id":"db","prompt":"Which database?","options":[{"id":"pg","label":"Postgres"},{"id":"lite","label":"SQLite"}]},
		{"id":"langs","prompt":"Which languages?","allowMultiple":true,"options":[{"id":"go","label":"Go"},{"id":"rs","label":"Rust"}]}]}`)
	qs, err := p.decode()
	require.NoError(t, err)
	assert.Equal(t, []permission.Question{
		{Question: "Which database?", Header: "Which database?", Options: []permission.Option{{Label: "Postgres"}, {Label: "SQLite"}}},
		{Question: "Which languages?", Header: "Which languages?", Kind: permission.Multi, Options: []permission.Option{{Label: "Go"}, {Label: "Rust"}}},
	}, qs)
	qs, err = decodeCursorAsk(t, cursorDB).decode()
	require.NoError(t, err)
	assert.Equal(t, "Storage", qs[0].Header)
}

func TestCursorAskRejectsWhatItCannotMapBack(t *testing.T) {
	for params, want := range map[string]string{
		`{"toolCallId":"t"}`: "questions: required",
		`{"questions":[{"prompt":"Q?","options":[{"id":"a","label":"A"},{"id":"b","label":"B"}]}]}`:          "questions[0].id: required",
		`{"questions":[{"id":"q","prompt":"Q?","options":[]},{"id":"q","prompt":"R?","options":[]}]}`:        "questions[1].id: duplicate question id \"q\"",
		`{"questions":[{"id":"q","prompt":"Q?","options":[{"id":"a","label":"A"},{"id":"a","label":"B"}]}]}`: `questions[0].options[1].id: want a unique, non-empty id, got "a"`,
		`{"questions":[{"id":"q","prompt":"Q?","options":[{"id":"a","label":"A"},{"label":"B"}]}]}`:          `questions[0].options[1].id: want a unique, non-empty id, got ""`,
	} {
		_, err := decodeCursorAsk(t, params).decode()
		assert.EqualError(t, err, want, params)
	}
}

func TestCursorViolationsNameCursorsFields(t *testing.T) {
	qs, err := decodeCursorAsk(t, `{"questions":[{"id":"q","prompt":"","options":[{"id":"a","label":"A"}]}]}`).decode()
	require.NoError(t, err)
	err = cursorPaths(permission.ValidateBridged(qs, permission.DefaultLimits()))
	assert.EqualError(t, err, "questions[0].prompt: String must contain at least 1 character(s); questions[0].options: must have 2-4 items")
}

func answered(qs []permission.Question, answers ...permission.Answer) dialect.Outcome {
	var r permission.Result
	for i, a := range answers {
		r.Answers = append(r.Answers, permission.Answered{Question: qs[i], Answer: a, Index: i})
	}
	return dialect.Outcome{Status: dialect.Answered, Result: r}
}

func TestCursorAskRepliesInCursorsShape(t *testing.T) {
	p := decodeCursorAsk(t, `{"questions":[
		{"id":"db","prompt":"Which database?","options":[{"id":"pg","label":"Postgres"},{"id":"lite","label":"SQLite"}]},
		{"id":"langs","prompt":"Which languages?","allowMultiple":true,"options":[{"id":"go","label":"Go"},{"id":"rs","label":"Rust"},{"id":"c","label":"C"}]}]}`)
	qs, err := p.decode()
	require.NoError(t, err)
	for name, c := range map[string]struct {
		o    dialect.Outcome
		want string
	}{
		"answered": {answered(qs, permission.Answer{Labels: []string{"SQLite"}}, permission.Answer{Labels: []string{"Go", "C"}}),
			`{"outcome":{"outcome":"answered","answers":[{"questionId":"db","selectedOptionIds":["lite"]},{"questionId":"langs","selectedOptionIds":["go","c"]}]}}`},
		"typed text on one of two": {answered(qs, permission.Answer{Other: true, Custom: "CockroachDB"}, permission.Answer{Labels: []string{"Rust"}}),
			`{"outcome":{"outcome":"skipped","reason":"The user answered in their own words:\n- Which database? → CockroachDB\n- Which languages? → Rust"}}`},
		"cancelled": {dialect.Outcome{Status: dialect.Cancelled}, `{"outcome":{"outcome":"cancelled"}}`},
		"timed out": {dialect.Outcome{Status: dialect.TimedOut}, `{"outcome":{"outcome":"skipped","reason":` + string(dialect.MustJSON(TimeoutReason)) + `}}`},
		"refused":   {dialect.Outcome{Status: dialect.Refused, Message: "question limit of 1 reached"}, `{"outcome":{"outcome":"skipped","reason":"question limit of 1 reached"}}`},
	} {
		got, err := json.Marshal(p.reply(c.o))
		require.NoError(t, err)
		assert.JSONEq(t, c.want, string(got), name)
	}
	one := decodeCursorAsk(t, cursorDB)
	qs, _ = one.decode()
	got, _ := json.Marshal(one.reply(answered(qs, permission.Answer{Other: true, Custom: "CockroachDB"})))
	assert.JSONEq(t, `{"outcome":{"outcome":"skipped","reason":"CockroachDB"}}`, string(got), "the typed text is the reason")
}

func TestCursorPlanQuestionShowsOverviewPlanAndTodos(t *testing.T) {
	q := cursorPlan{Name: "Build the app", Overview: "A small server.", Plan: "1. Create the server.\n2. Test it.",
		Todos: []cursorTodo{{ID: "t1", Content: "Create the server"}, {ID: "t2", Content: "Test it"}}}.question()
	assert.Equal(t, "Build the app", q.Header)
	assert.Equal(t, "A small server.\n\n1. Create the server.\n2. Test it.\n\nTo do:\n- Create the server\n- Test it", q.Question)
	assert.Equal(t, []string{"Accept", "Reject"}, []string{q.Options[0].Label, q.Options[1].Label})
	assert.Equal(t, "Plan", cursorPlan{Plan: "x"}.question().Header)
}

func TestCursorTodosMergeByIDAndBecomePlanEntries(t *testing.T) {
	d := &Dialect{}
	d.setTodos("s1", []cursorTodo{{ID: "1", Content: "Write the handler", Status: "pending"}, {ID: "2", Content: "Test it", Status: "pending"}})
	list := d.mergeTodos("s1", []cursorTodo{{ID: "1", Status: "completed"}, {ID: "3", Content: "Ship it", Status: "in_progress"}}, true)
	assert.Equal(t, []cursorTodo{{ID: "1", Content: "Write the handler", Status: "completed"}, {ID: "2", Content: "Test it", Status: "pending"}, {ID: "3", Content: "Ship it", Status: "in_progress"}}, list)
	list = d.mergeTodos("s1", []cursorTodo{{ID: "9", Content: "Only this", Status: "cancelled"}}, false)
	assert.Equal(t, []cursorTodo{{ID: "9", Content: "Only this", Status: "cancelled"}}, list)
	assert.Empty(t, d.mergeTodos("s2", nil, true), "another session has a list of its own")

	var entries []string
	for _, t := range []cursorTodo{{Content: "a", Status: "pending"}, {Content: "b", Status: "in_progress"}, {Content: "c", Status: "completed"},
		{Content: "d", Status: "cancelled"}, {Content: "e", Status: "TODO_STATUS_IN_PROGRESS"}, {ID: "f", Status: "odd"}} {
		entries = append(entries, string(dialect.MustJSON(planEntry(t))))
	}
	assert.Equal(t, []string{
		`{"content":"a","priority":"medium","status":"pending"}`,
		`{"content":"b","priority":"medium","status":"in_progress"}`,
		`{"content":"c","priority":"medium","status":"completed"}`,
		`{"content":"d (cancelled)","priority":"medium","status":"completed"}`,
		`{"content":"e","priority":"medium","status":"in_progress"}`,
		`{"content":"f","priority":"medium","status":"pending"}`,
	}, entries)
}

func TestCursorRemembersABoundedNumberOfToolCalls(t *testing.T) {
	d := &Dialect{}
	note := func(id, session string) {
		d.noteToolCall(&relay.Message{Method: "session/update", Raw: json.RawMessage(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"` + session + `","update":{"sessionUpdate":"tool_call","toolCallId":"` + id + `","title":"x"}}}`)})
	}
	note("first", "s1")
	for i := range cursorMaxCalls {
		note(strconv.Itoa(i), "s2")
	}
	d.noteToolCall(&relay.Message{Method: "session/update", Raw: json.RawMessage(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s3","update":{"sessionUpdate":"tool_call_update","toolCallId":"late"}}}`)})
	assert.Len(t, d.calls, cursorMaxCalls)
	assert.NotContains(t, d.calls, "first", "the oldest is forgotten")
	assert.NotContains(t, d.calls, "late", "an update does not start a tool call")
}

// BenchmarkCursorSeesAMessageChunk is what the Cursor dialect adds to each
// session/update of any agent: a byte search, no decoding, no allocation.
func BenchmarkCursorSeesAMessageChunk(b *testing.B) {
	raw := json.RawMessage(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_0123456789","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"` +
		strings.Repeat("The quick brown fox jumps over the lazy dog. ", 20) + `"}}}}`)
	m := &relay.Message{Method: "session/update", Raw: raw}
	d := &Dialect{}
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for range b.N {
		if d.Claim(nil, m) != nil {
			b.Fatal("claimed a message chunk")
		}
	}
}

func TestStartsToolCallReadsTheDiscriminator(t *testing.T) {
	for raw, want := range map[string]bool{
		`{"params":{"update":{"sessionUpdate":"tool_call","toolCallId":"c"}}}`:                       true,
		`{"params":{"update":{"sessionUpdate" : "tool_call"}}}`:                                      true,
		`{"params":{"update":{"toolCallId":"c","title":"Use Unicode","sessionUpdate":"tool_call"}}}`: true,
		`{"params":{"update":{"sessionUpdate":"tool_call_update","toolCallId":"c"}}}`:                false,
		`{"params":{"update":{"sessionUpdate":"agent_message_chunk","text":"tool_call U"}}}`:         false,
		`{"params":{"update":{"text":"sessionUpdate tool_call"}}}`:                                   false,
		`{}`: false,
	} {
		assert.Equal(t, want, (&relay.Message{Raw: []byte(raw)}).IsUpdate("tool_call"), raw)
	}
}
