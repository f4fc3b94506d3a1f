package permission

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chain is a question whose option "a" leads to next, depth levels deep.
func chain(depth int) Question {
	q0 := q("L0?", "L0", "a", "b")
	cur := &q0
	for i := 1; i <= depth; i++ {
		next := q("L"+strings.Repeat("+", i)+"?", "L"+string(rune('0'+i)), "a", "b")
		cur.FollowUps = map[string][]Question{"a": {next}}
		cur = &cur.FollowUps["a"][0]
	}
	return q0
}

func multi(qq Question) Question {
	qq.Kind.Many = true
	return qq
}

func otherWith(text string) string {
	return `{"outcome":{"outcome":"selected","optionId":"__other__","_meta":{"customText":"` + text + `"}}}`
}

const cancelled = `{"outcome":{"outcome":"cancelled"}}`

// askFlow is one flow of questions asked through the client: the
// client's responses, and the answers, titles and options they bring.
type askFlow struct {
	name      string
	questions []Question
	round     int
	responses []string
	answers   []string // path=text, in asked order
	titles    []string // of every permission request
	options   [][]string
	cancelled bool
}

func TestAskFlows(t *testing.T) {
	flows := append(followUpFlows(), doneLoopFlows()...)
	for _, tt := range append(flows, roundAndCancelFlows()...) {
		t.Run(tt.name, func(t *testing.T) { runAskFlow(t, tt) })
	}
}

// followUpFlows: follow-ups asked after their question, as deep as they go.
func followUpFlows() []askFlow {
	return []askFlow{
		{
			name:      "follow-ups nested three levels",
			questions: []Question{chain(3)},
			responses: []string{selected("a"), selected("a"), selected("a"), selected("b")},
			answers: []string{
				"questions[0]=a",
				`questions[0].followUps["a"][0]=a`,
				`questions[0].followUps["a"][0].followUps["a"][0]=a`,
				`questions[0].followUps["a"][0].followUps["a"][0].followUps["a"][0]=b`,
			},
			titles: []string{"L0", "L1 (2/2)", "L2 (3/3)", "L3 (4/4)"},
		},
		{
			name:      "a follow-up's option not picked brings nothing",
			questions: []Question{chain(3)},
			responses: []string{selected("b")},
			answers:   []string{"questions[0]=b"},
			titles:    []string{"L0"},
		},
		{
			name:      "Other on a question with follow-ups brings none",
			questions: []Question{chain(1)},
			responses: []string{otherWith("c")},
			answers:   []string{"questions[0]=c"},
			titles:    []string{"L0"},
		},
	}
}

// doneLoopFlows: a multi-select asked again with a Done option.
func doneLoopFlows() []askFlow {
	auth := multi(q("Which auth?", "Auth", "OAuth", "SAML"))
	auth.FollowUps = map[string][]Question{"OAuth": {q("Which provider?", "Provider", "GitHub", "Google")}}
	return []askFlow{
		{
			name:      "Done loop ended by Other keeps the picks and the text",
			questions: []Question{multi(q("Which languages?", "Languages", "Go", "Rust", "C"))},
			responses: []string{selected("Go"), otherWith("Zig")},
			answers:   []string{"questions[0]=Go, Zig"},
			titles:    []string{"Languages", "Languages"},
			options:   [][]string{{"Go", "Rust", "C", OtherID}, {"Rust", "C", OtherID, DoneID}},
		},
		{
			name:      "Done loop ends by itself when every option is picked",
			questions: []Question{multi(q("Which?", "Both", "a", "b"))},
			responses: []string{selected("b"), selected("a")},
			answers:   []string{"questions[0]=a, b"},
			titles:    []string{"Both", "Both"},
		},
		{
			name:      "Done with nothing new after one pick",
			questions: []Question{multi(q("Which?", "Pick", "a", "b", "c"))},
			responses: []string{selected("c"), selected(DoneID)},
			answers:   []string{"questions[0]=c"},
		},
		{
			name:      "multi-select follow-ups after a Done loop",
			questions: []Question{auth, q("Deploy?", "Deploy", "now", "later")},
			responses: []string{selected("OAuth"), selected(DoneID), selected("Google"), selected("later")},
			answers:   []string{"questions[0]=OAuth", `questions[0].followUps["OAuth"][0]=Google`, "questions[1]=later"},
			titles:    []string{"Auth (1/2)", "Auth (1/2)", "Provider (2/3)", "Deploy (3/3)"},
		},
	}
}

// roundAndCancelFlows: a round's titles, and cancels midway.
func roundAndCancelFlows() []askFlow {
	return []askFlow{
		{
			name:      "round titles from round 2",
			questions: []Question{q("1?", "A", "x", "y"), q("2?", "B", "x", "y")},
			round:     3,
			responses: []string{selected("x"), selected("y")},
			answers:   []string{"questions[0]=x", "questions[1]=y"},
			titles:    []string{"Round 3 · A (1/2)", "Round 3 · B (2/2)"},
		},
		{
			name:      "cancel at a follow-up drops the answers so far",
			questions: []Question{chain(2), q("Other?", "More", "x", "y")},
			responses: []string{selected("a"), cancelled},
			titles:    []string{"L0 (1/2)", "L1 (2/3)"},
			cancelled: true,
		},
		{
			name:      "cancel in a Done loop",
			questions: []Question{multi(q("Which?", "Pick", "a", "b", "c")), q("2?", "B", "x", "y")},
			responses: []string{selected("a"), cancelled},
			titles:    []string{"Pick (1/2)", "Pick (1/2)"},
			cancelled: true,
		},
	}
}

// runAskFlow asks tt's questions of a client that gives tt's responses.
func runAskFlow(t *testing.T, tt askFlow) {
	require.NoError(t, ValidateBridged(tt.questions, DefaultLimits()), "the flows ask valid sets")
	peer := &fakePeer{respond: script(tt.responses...)}
	res, err := Ask(t.Context(), peer, Request{SessionID: "s", Questions: tt.questions, Round: tt.round})
	require.NoError(t, err)
	assert.Equal(t, tt.cancelled, res.Cancelled)
	var got []string
	for _, a := range res.Answers {
		got = append(got, a.Path+"="+a.Answer.Text())
	}
	assert.Equal(t, tt.answers, got)
	assert.Len(t, peer.asked, len(tt.responses), "one permission request per response, none after a cancel")
	if tt.titles != nil {
		var titles []string
		for _, p := range peer.asked {
			titles = append(titles, title(p))
		}
		assert.Equal(t, tt.titles, titles)
	}
	for i, want := range tt.options {
		assert.Equal(t, want, optionIDs(peer.asked[i]), "options of request %d", i+1)
	}
	last := peer.notes[len(peer.notes)-1]["update"].(map[string]any)
	if tt.cancelled {
		assert.Equal(t, "failed", last["status"])
		assert.Contains(t, mustJSON(last["content"]), "Not answered.")
	} else {
		assert.Equal(t, "completed", last["status"])
	}
}

func TestAskWithAnEndedContextAsksNothing(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	peer := &fakePeer{respond: script()}
	res, err := Ask(ctx, peer, Request{SessionID: "s", Questions: []Question{q("1?", "A", "a", "b")}})
	require.NoError(t, err)
	assert.True(t, res.Cancelled)
	assert.Equal(t, context.Canceled.Error(), res.Reason)
	assert.Empty(t, peer.asked)
}

// When ctx ends, whoever ended it settled the set and reports it; Ask must
// not claim "Not answered." over an answer from the desk.
func TestAskSettledElsewhereLeavesTheSummaryToTheCaller(t *testing.T) {
	ctx, cancel := context.WithCancelCause(t.Context())
	peer := &fakePeer{respond: func(int, map[string]any) (string, error) {
		cancel(context.DeadlineExceeded)
		return "block", nil
	}}
	res, err := Ask(ctx, peer, Request{SessionID: "s", Questions: []Question{q("1?", "A", "a", "b")}})
	require.NoError(t, err)
	assert.True(t, res.Cancelled)
	assert.Equal(t, context.DeadlineExceeded.Error(), res.Reason, "the cause says who settled it")
	require.Len(t, peer.notes, 1, "only the tool call showing the question")
}

func TestAskOnTheAgentsToolCall(t *testing.T) {
	peer := &fakePeer{respond: script(selected("a"))}
	_, err := Ask(t.Context(), peer, Request{SessionID: "s", ToolCallID: "toolu_1", Questions: []Question{q("1?", "A", "a", "b")}})
	require.NoError(t, err)
	assert.Equal(t, "toolu_1", peer.asked[0]["toolCall"].(map[string]any)["toolCallId"])
	require.Len(t, peer.notes, 2)
	first := peer.notes[0]["update"].(map[string]any)
	assert.Equal(t, "tool_call_update", first["sessionUpdate"], "the agent's call is updated, not started again")
	assert.Equal(t, "toolu_1", first["toolCallId"])
	last := peer.notes[1]["update"].(map[string]any)
	assert.Equal(t, "in_progress", last["status"], "the agent completes its own call")
	assert.Contains(t, mustJSON(last["content"]), "A: a")
}

func TestAskOwnToolCallsAreFreshEachTime(t *testing.T) {
	ids := map[string]bool{}
	for range 3 {
		peer := &fakePeer{respond: script(selected("a"))}
		_, err := Ask(t.Context(), peer, Request{SessionID: "s", Questions: []Question{q("1?", "A", "a", "b")}})
		require.NoError(t, err)
		id := peer.notes[0]["update"].(map[string]any)["toolCallId"].(string)
		assert.True(t, strings.HasPrefix(id, "askbridge-"), id)
		assert.Equal(t, id, peer.asked[0]["toolCall"].(map[string]any)["toolCallId"], "requests name the call the user saw")
		ids[id] = true
	}
	assert.Len(t, ids, 3)
}
