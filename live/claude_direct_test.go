//go:build live

package live

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/askbridge/askbridge/live/harness"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// These tests run claude-agent-acp directly: they pin down how Claude asks
// (elicitation/create) and what the model reads back, which is what
// askbridge must reproduce for clients without elicitation.

// elicitations collects elicitation/create params and answers each with the
// next scripted result (then cancel).
type elicitations struct {
	mu      sync.Mutex
	params  []json.RawMessage
	answers []string
}

func (e *elicitations) answer(p json.RawMessage) (any, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.params = append(e.params, p)
	a := `{"action":"cancel"}`
	if len(e.answers) > 0 {
		a, e.answers = e.answers[0], e.answers[1:]
	}
	if a == "error" {
		return nil, &harness.RPCError{Code: -32603, Message: "the test client failed"}
	}
	return json.RawMessage(a), nil
}

func (e *elicitations) got() []json.RawMessage {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]json.RawMessage(nil), e.params...)
}

// What Claude's tool result says around the answers: the first form when
// every answer is one of the options' labels, the second when any is not
// (typed text, wherever it came from) or carries a note.
const (
	claudeDone       = ` You can now continue with these answers in mind.`
	claudeUnanswered = `The user did not answer the questions.`
)

const claudeRead = ` Read the answers carefully — they may request clarification, changes, or that you not proceed — and follow what they actually say.`

// claudeDirectCase is one case of TestClaudeDirectElicitation.
type claudeDirectCase struct {
	name    string
	calls   []string
	answers []string
	stop    string
	// results are the tool results the model reads, per call.
	results []string
	isError []bool
}

var claudeDirectCases = []claudeDirectCase{
	{
		name:    "two questions accepted, multi-select with custom text",
		calls:   []string{twoQuestions},
		answers: []string{`{"action":"accept","content":{"question_0":"SQLite","question_1":["Go","Rust"],"question_1_custom":"Zig"}}`},
		results: []string{`The user answered: "Which database should the service use?"="SQLite", "Which languages should the service support?"="Go, Rust, Zig".` + claudeRead},
	},
	{
		name:    "single question accepted",
		calls:   []string{dbQuestion},
		answers: []string{`{"action":"accept","content":{"question_0":"Postgres"}}`},
		results: []string{`Your questions have been answered: "Which database should the service use?"="Postgres".` + claudeDone},
	},
	{
		name:    "multi-select picks only",
		calls:   []string{langQuestion},
		answers: []string{`{"action":"accept","content":{"question_0":["Go","Rust"]}}`},
		results: []string{`Your questions have been answered: "Which languages should the service support?"="Go, Rust".` + claudeDone},
	},
	{
		name:    "custom text instead of a pick",
		calls:   []string{dbQuestion},
		answers: []string{`{"action":"accept","content":{"question_0_custom":"CockroachDB"}}`},
		results: []string{`The user answered: "Which database should the service use?"="CockroachDB".` + claudeRead},
	},
	{
		name:    "a value outside the enum",
		calls:   []string{dbQuestion},
		answers: []string{`{"action":"accept","content":{"question_0":"MongoDB"}}`},
		results: []string{`The user answered: "Which database should the service use?"="MongoDB".` + claudeRead},
	},
	{
		name:    "pick with a note",
		calls:   []string{dbQuestion},
		answers: []string{`{"action":"accept","content":{"question_0":"Postgres","question_0_custom":"version 17"}}`},
		results: []string{`The user answered: "Which database should the service use?"="Postgres" notes: version 17.` + claudeRead},
	},
	{
		name:    "accepted with nothing filled",
		calls:   []string{dbQuestion},
		answers: []string{`{"action":"accept","content":{}}`},
		results: []string{claudeUnanswered},
	},
	{
		name:    "declined",
		calls:   []string{dbQuestion},
		answers: []string{`{"action":"decline"}`},
		results: []string{claudeUnanswered},
	},
	{
		name:    "cancelled",
		calls:   []string{dbQuestion},
		answers: []string{`{"action":"cancel"}`},
		results: []string{"Tool permission request failed: Error: Tool use aborted"},
		isError: []bool{true},
	},
	{
		name:    "client error",
		calls:   []string{dbQuestion},
		answers: []string{"error"},
		results: []string{"Could not present the question to the user."},
		isError: []bool{true},
	},
	{
		name:    "two calls in one turn",
		calls:   []string{dbQuestion, langQuestion},
		answers: []string{`{"action":"accept","content":{"question_0":"SQLite"}}`, `{"action":"accept","content":{"question_0":["Python"]}}`},
		results: []string{
			`Your questions have been answered: "Which database should the service use?"="SQLite".` + claudeDone,
			`Your questions have been answered: "Which languages should the service support?"="Python".` + claudeDone,
		},
	},
}

func TestClaudeDirectElicitation(t *testing.T) {
	for _, c := range claudeDirectCases {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			m := model(t, harness.Claude.Tool, c.calls...)
			el := &elicitations{answers: c.answers}
			r := harness.Start(t, harness.Claude, harness.Options{ModelURL: m.URL, Client: harness.Client{Elicit: el.answer}})
			_, stop, err := r.Turn(harness.FormElicitation, "Ask me about the service.")
			require.NoError(t, err)
			assert.Equal(t, "end_turn", stop)
			for i, p := range el.got() {
				t.Logf("elicitation/create %d: %s", i, p)
			}
			require.Len(t, el.got(), len(c.calls), "one elicitation per call")
			require.Len(t, m.Results(), len(c.calls), "one tool result per call")
			for i, res := range m.Results() {
				t.Logf("tool result %d (is_error %v): %s", i, res.IsError, res.Text)
				if i < len(c.results) {
					assert.Equal(t, c.results[i], res.Text)
				}
				assert.Equal(t, i < len(c.isError) && c.isError[i], res.IsError)
			}
		})
	}
}

func TestClaudeDirectWithoutFormElicitationHidesTheTool(t *testing.T) {
	for name, caps := range map[string]string{
		"no_elicitation": harness.NoFeatures,
		"empty":          `{"elicitation":{}}`,
		"url_only":       `{"elicitation":{"url":{}}}`,
		"form_true":      `{"elicitation":{"form":true}}`,
		"form_object":    harness.FormElicitation,
	} {
		t.Run(name, func(t *testing.T) {
			m := model(t, harness.Claude.Tool, dbQuestion)
			el := &elicitations{answers: []string{`{"action":"decline"}`}}
			r := harness.Start(t, harness.Claude, harness.Options{ModelURL: m.URL, Client: harness.Client{Elicit: el.answer}})
			_, stop, err := r.Turn(caps, "Ask me which database.")
			require.NoError(t, err)
			assert.Equal(t, "end_turn", stop)
			assert.NotEmpty(t, m.Requests())
			// "form": true is not enough: the capability is an object.
			offered := name == "form_object"
			assert.Equal(t, offered, m.Offered(), "AskUserQuestion is offered only with clientCapabilities.elicitation.form:{}")
			assert.Equal(t, offered, len(m.Results()) == 1)
		})
	}
}
