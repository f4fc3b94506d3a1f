//go:build live

package live

import (
	"testing"

	"github.com/askbridge/askbridge/live/harness"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Through askbridge: a client that only renders permission requests asks
// and answers the real agents' questions.

// bridgedTurn runs one prompt through askbridge with a client without
// elicitation, answering permission requests with p.
func bridgedTurn(t *testing.T, a harness.Agent, p *permissionLog, calls ...string) (stop string, results []string) {
	t.Helper()
	m := model(t, a.Tool, calls...)
	r := harness.Start(t, a, harness.Options{ModelURL: m.URL, Wrap: bridged.wrap(t), Client: harness.Client{RequestPermission: p.handle}})
	_, stop, err := r.Turn(harness.NoFeatures, "Ask me about the service.")
	require.NoError(t, err)
	require.True(t, m.Offered(), "%s offers its question tool through askbridge", a.Name)
	return stop, m.ToolResults()
}

func TestClaudeBridgedSingleSelect(t *testing.T) {
	p := &permissionLog{answer: func(int, map[string]any) string { return pick("Postgres") }}
	stop, results := bridgedTurn(t, harness.Claude, p, dbQuestion)
	assert.Equal(t, "end_turn", stop)
	require.Len(t, p.got(), 1)
	assert.Contains(t, mustJSON(p.got()[0]), `"optionId":"__other__"`)
	require.Len(t, results, 1)
	assert.Equal(t, `Your questions have been answered: "Which database should the service use?"="Postgres".`+claudeDone, results[0])
}

func TestClaudeBridgedOtherWithTypedText(t *testing.T) {
	p := &permissionLog{answer: func(int, map[string]any) string {
		return `{"outcome":{"outcome":"selected","optionId":"__other__","_meta":{"customText":"CockroachDB"}}}`
	}}
	_, results := bridgedTurn(t, harness.Claude, p, dbQuestion)
	require.Len(t, results, 1)
	assert.Equal(t, `The user answered: "Which database should the service use?"="CockroachDB".`+claudeRead, results[0])
}

func TestClaudeBridgedMultiSelectOnePickAtATime(t *testing.T) {
	p := &permissionLog{answer: func(n int, _ map[string]any) string {
		switch n {
		case 1:
			return pick("Rust")
		case 2:
			return pick("Go")
		}
		return pick("__done__")
	}}
	_, results := bridgedTurn(t, harness.Claude, p, langQuestion)
	require.Len(t, results, 1)
	assert.Contains(t, results[0], `"Go, Rust"`)
	assert.Len(t, p.got(), 3, "two picks and Done")
}

func TestClaudeBridgedMultiSelectAllAtOnceWithOther(t *testing.T) {
	p := &permissionLog{answer: func(int, map[string]any) string {
		return `{"outcome":{"outcome":"selected","optionId":"Go","_meta":{"selectedOptionIds":["Go","__other__"],"customText":"Zig"}}}`
	}}
	_, results := bridgedTurn(t, harness.Claude, p, langQuestion)
	require.Len(t, results, 1)
	assert.Contains(t, results[0], `"Go, Zig"`)
	assert.Len(t, p.got(), 1)
}

func TestClaudeBridgedCancel(t *testing.T) {
	p := &permissionLog{}
	stop, results := bridgedTurn(t, harness.Claude, p, twoQuestions)
	assert.Equal(t, "end_turn", stop, "Claude's turn goes on after a cancelled question")
	assert.Len(t, p.got(), 1, "no question after a cancel")
	require.Len(t, results, 1)
	assert.Equal(t, "Tool permission request failed: Error: Tool use aborted", results[0], "the elicitation was cancelled")
}

func TestClaudeBridgedTwoCallsInOneTurn(t *testing.T) {
	p := &permissionLog{answer: func(n int, _ map[string]any) string {
		if n == 1 {
			return pick("Postgres")
		}
		return `{"outcome":{"outcome":"selected","optionId":"Go","_meta":{"selectedOptionIds":["Go"]}}}`
	}}
	_, results := bridgedTurn(t, harness.Claude, p, dbQuestion, langQuestion)
	require.Len(t, results, 2)
	assert.Equal(t, []string{"Database", "Round 2 · Languages"}, p.titles(), "the second round of a turn is numbered")
}

func TestQwenBridgedAnswersReachTheTopLevelAnswersField(t *testing.T) {
	p := &permissionLog{answer: func(n int, _ map[string]any) string {
		if n == 1 {
			return pick("SQLite")
		}
		return `{"outcome":{"outcome":"selected","optionId":"Go","_meta":{"selectedOptionIds":["Go","Python"]}}}`
	}}
	stop, results := bridgedTurn(t, harness.Qwen, p, twoQuestions)
	assert.Equal(t, "end_turn", stop)
	assert.Equal(t, []string{"Database (1/2)", "Languages (2/2)"}, p.titles())
	require.Len(t, results, 1)
	assert.Equal(t, "User has provided the following answers:\n\n**Database**: SQLite\n**Languages**: Go, Python", results[0])
}

func TestQwenBridgedCancel(t *testing.T) {
	p := &permissionLog{}
	stop, results := bridgedTurn(t, harness.Qwen, p, twoQuestions)
	assert.Equal(t, "end_turn", stop)
	assert.Len(t, p.got(), 1, "no question after a cancel")
	assert.Empty(t, results, "Qwen ends the turn without telling the model")
}

// A client that renders forms gets Claude's elicitation unchanged: the same
// scenario gives the same tool result directly and through askbridge.
func TestClaudeFormClientSameDirectAndBridged(t *testing.T) {
	for _, md := range modes {
		t.Run(md.name, func(t *testing.T) {
			m := model(t, harness.Claude.Tool, twoQuestions)
			el := &elicitations{answers: []string{`{"action":"accept","content":{"question_0":"SQLite","question_1":["Go","Rust"],"question_1_custom":"Zig"}}`}}
			p := &permissionLog{}
			r := harness.Start(t, harness.Claude, harness.Options{ModelURL: m.URL, Wrap: md.wrap(t),
				Client: harness.Client{Elicit: el.answer, RequestPermission: p.handle}})
			_, stop, err := r.Turn(harness.FormElicitation, "Ask me about the service.")
			require.NoError(t, err)
			assert.Equal(t, "end_turn", stop)
			assert.Empty(t, p.got(), "no permission request for a question when the client renders forms")
			require.Len(t, el.got(), 1)
			assert.Contains(t, string(el.got()[0]), `"question_1_custom"`)
			require.Len(t, m.ToolResults(), 1)
			assert.Equal(t, `The user answered: "Which database should the service use?"="SQLite", "Which languages should the service support?"="Go, Rust, Zig".`+claudeRead, m.ToolResults()[0])
		})
	}
}
