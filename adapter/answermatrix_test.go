//go:build unix

package adapter

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

// The answer matrix: every dialect × every route that answers × every kind
// of answer. Each cell asks one question set the way the dialect's agent
// asks it, has the route answer it through the route's own code (the
// client's responses, the desk's and the hub's HTTP API, the inbox's
// handler, the terminal prompter, a notification's tap), decodes the
// agent's reply the way that agent decodes it, and checks it against the
// answer the board's history records, which must be the answer given.
// Where a route or a dialect cannot give a kind of answer, the cell is in
// the table of what cannot be (cannotCell), and the test checks that the
// route or dialect indeed offers no such thing; nothing is skipped unsaid.
// It runs where the hub's tests run (unix): the hub, the inbox and the ask
// socket are Unix sockets in checked folders.

// want is one question's intended answer.
type want struct {
	Labels []string
	Other  bool
	Typed  string
}

// items is the answer as a list: the picks, then what was typed, or
// OtherWithoutText for Other with nothing typed.
func (w want) items() []string {
	out := append([]string(nil), w.Labels...)
	switch {
	case w.Other && w.Typed != "":
		out = append(out, w.Typed)
	case w.Other:
		out = append(out, permission.OtherWithoutText)
	}
	return out
}

// kind is a kind of answer. The set asked is one question: the
// single-select database question, or with multi the multi-select
// features question; with followUp, picking SQLite asks the follow-up.
type kind struct {
	name     string
	multi    bool
	followUp bool
	dismiss  bool
	timeout  bool
	answers  []want // the question's, then the follow-up's
}

var (
	qDatabase = permission.Question{Question: "Which database?", Header: "Database",
		Options: []permission.Option{{Label: "Postgres", Description: "relational"}, {Label: "SQLite", Description: "embedded"}}}
	qFeatures = permission.Question{Question: "Which features do you want?", Header: "Features", Kind: permission.Multi,
		Options: []permission.Option{{Label: "Auth", Description: "sign-in"}, {Label: "Search", Description: "full text"}, {Label: "Metrics", Description: "counters"}}}
	qSQLite = permission.Question{Question: "Which SQLite features?", Header: "SQLite", Kind: permission.Multi,
		Options: []permission.Option{{Label: "WAL"}, {Label: "FTS"}}}
)

var kinds = []kind{
	{name: "one pick", answers: []want{{Labels: []string{"SQLite"}}}},
	{name: "several picks", multi: true, answers: []want{{Labels: []string{"Auth", "Search"}}}},
	{name: "picks and typed text", multi: true, answers: []want{{Labels: []string{"Auth", "Search"}, Other: true, Typed: "SSO"}}},
	{name: "typed text alone", answers: []want{{Other: true, Typed: "CockroachDB, clustered"}}},
	{name: "Other with no text", answers: []want{{Other: true}}},
	{name: "dismissed", dismiss: true},
	{name: "timed out", timeout: true},
	{name: "follow-ups", followUp: true, answers: []want{{Labels: []string{"SQLite"}}, {Labels: []string{"WAL", "FTS"}}}},
}

// question is the set's question, with its follow-up where the kind has one.
func (k kind) question() permission.Question {
	if k.multi {
		return qFeatures
	}
	q := qDatabase
	if k.followUp {
		q.FollowUps = map[string][]permission.Question{"SQLite": {qSQLite}}
	}
	return q
}

// asked is the question each want answers, in order.
func (k kind) asked() []permission.Question {
	if k.followUp {
		return []permission.Question{k.question(), qSQLite}
	}
	return []permission.Question{k.question()}
}

// heard is the agent's reply as that agent reads it: how the set ended,
// and per question text the answer as a list (picks, then typed text) or,
// for an agent that reads one string, that string alone.
type heard struct {
	state   permission.State // StateAnswered, StateCancelled or StateTimeout
	answers map[string][]string
}

func TestAnswerMatrix(t *testing.T) {
	var cells, cannots int
	for _, d := range allMatrixDialects() {
		for _, r := range matrixRoutes() {
			for _, k := range kinds {
				name := fmt.Sprintf("%s/%s/%s", d.name, r.name, k.name)
				if why := cannotCell(d, r, k); why != "" {
					cannots++
					t.Run(name, func(t *testing.T) { t.Parallel(); checkCannot(t, d, r, k, why) })
					continue
				}
				cells++
				t.Run(name, func(t *testing.T) { t.Parallel(); runCell(t, d, r, k) })
			}
		}
	}
	t.Logf("%d cells answered, %d cells a route or dialect cannot give", cells, cannots)
}

// runCell asks, answers and compares one cell.
func runCell(t *testing.T, d matrixDialect, r matrixRoute, k kind) {
	c := newCell(t, d, r, k)
	c.ask(t, k)
	r.answer(t, c, k)
	got := d.decode(t, c.reply(t), k)
	// A form the client rendered reaches the agent as the client sent it,
	// while askbridge reads it for the board: the history may come later.
	var p permission.Pending
	require.Eventually(t, func() bool {
		hist, _ := c.board.History("s1")
		if len(hist) == 1 {
			p = hist[0]
		}
		return len(hist) == 1 && p.State != permission.StatePending
	}, 5*time.Second, 5*time.Millisecond, "one set asked, and settled")
	switch {
	case k.dismiss:
		assert.Equal(t, permission.StateCancelled, p.State)
	case k.timeout:
		assert.Equal(t, permission.StateTimeout, p.State)
	default:
		require.Equal(t, permission.StateAnswered, p.State, "the set was answered")
		require.NotNil(t, p.Result)
		assertRecorded(t, k, p.Result.Answers)
	}
	assert.Equal(t, p.State, got.state, "what the agent read ended as the history says")
	if p.State != permission.StateAnswered {
		return
	}
	expect := map[string][]string{}
	for _, a := range p.Result.Answers {
		w := want{Labels: a.Answer.Labels, Other: a.Answer.Other, Typed: a.Answer.Custom}
		if d.joined || d.joinedTyped && a.Answer.Other {
			expect[a.Question.Question] = []string{a.Answer.Text()}
		} else {
			expect[a.Question.Question] = w.items()
		}
	}
	assert.Equal(t, expect, got.answers, "the agent reads the answer the history records")
}

// assertRecorded checks the history holds the answer given: the picks and
// the typed text apart.
func assertRecorded(t *testing.T, k kind, got []permission.Answered) {
	t.Helper()
	require.Len(t, got, len(k.answers))
	for i, w := range k.answers {
		a := got[i].Answer
		assert.Equal(t, k.asked()[i].Question, got[i].Question.Question)
		assert.Equal(t, slices.Clip(append([]string{}, w.Labels...)), slices.Clip(append([]string{}, a.Labels...)), "picks recorded")
		assert.Equal(t, w.Other, a.Other, "Other recorded")
		assert.Equal(t, w.Typed, a.Custom, "typed text recorded alone")
	}
}

// cannotCell says why a cell cannot be: the dialect has no such question
// or answer, or the route offers no way to give it. "" means it can.
func cannotCell(d matrixDialect, r matrixRoute, k kind) string {
	typed := slices.ContainsFunc(k.answers, func(w want) bool { return w.Other })
	switch {
	case k.multi && !d.multi:
		return d.name + " has no multi-select"
	case k.followUp && !d.followUps:
		return d.name + " asks no follow-up questions"
	case typed && d.noOther:
		return d.name + "'s question has no free-text field: Other is not offered"
	}
	if why := r.cannot(d, k); why != "" {
		return why
	}
	return ""
}

// checkCannot checks what a cannot cell claims: Other not offered is absent from the
// permission request the editor is shown; a route's claim is checked by
// the route (route.check).
func checkCannot(t *testing.T, d matrixDialect, r matrixRoute, k kind, why string) {
	t.Logf("cannot: %s", why)
	switch {
	case strings.HasPrefix(why, d.name+" has no multi-select"), strings.HasPrefix(why, d.name+" asks no follow-up"):
		// What the agent's own tool cannot ask (its schema has no such
		// field): a fact about the agent, shown in docs/agents.md.
	case strings.HasPrefix(why, d.name+"'s question has no free-text field"):
		c := newCell(t, d, editorRoute(), k)
		c.ask(t, k)
		req, _ := c.h.NextRequest(t, "session/request_permission")
		assert.NotContains(t, string(req.Params), permission.OtherID, "no Other offered")
		c.h.Answer(t, req, `{"outcome":{"outcome":"cancelled"}}`)
	default:
		require.NotNil(t, r.check, "route %s checks its claim %q", r.name, why)
		r.check(t, d, k)
	}
}
