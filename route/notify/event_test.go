package notify

import (
	"strings"
	"testing"
	"time"

	"github.com/askbridge/askbridge/permission"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Each way a set ends becomes its event, with where it ended.
func TestEventFromEveryEnding(t *testing.T) {
	qs := []permission.Question{question("Which database?", "Database", "Postgres", "SQLite (Recommended)")}
	cases := []struct {
		name           string
		resolve        func(b *permission.Board, id string) error
		event          string
		source         permission.Source
		reason, answer string
	}{
		{"client answer", func(b *permission.Board, id string) error {
			return b.Settle(id, permission.Result{Answers: []permission.Answered{{Question: qs[0], Answer: permission.Answer{Labels: []string{"Postgres"}}}}}, permission.ByEditor())
		}, Answered, permission.SourceClient, "", "Postgres"},
		{"dismissed in the editor", func(b *permission.Board, id string) error {
			return b.Settle(id, permission.Result{Cancelled: true}, permission.ByEditor())
		}, Cancelled, permission.SourceClient, "", ""},
		{"rejected at the desk", func(b *permission.Board, id string) error {
			return b.Withdraw(id, "rejected at the answer desk", permission.BySelf(permission.SourceDesk))
		}, Cancelled, permission.SourceDesk, "rejected at the answer desk", ""},
		{"answered in the terminal", func(b *permission.Board, id string) error {
			return b.Settle(id, permission.Result{Source: permission.SourceTerminal, Answers: []permission.Answered{{Question: qs[0], Answer: permission.Answer{Other: true, Custom: "MariaDB"}}}}, permission.ByEditor())
		}, Answered, permission.SourceTerminal, "", "MariaDB"},
		{"timed out", func(b *permission.Board, id string) error {
			return b.Withdraw(id, permission.ReasonTimeout, permission.BySelf(permission.SourceTimeout))
		}, Timeout, permission.SourceTimeout, permission.ReasonTimeout, ""},
		{"timed out, answered with the recommended option", func(b *permission.Board, id string) error {
			return b.Settle(id, permission.Recommended(qs), permission.ByEditor())
		}, Timeout, permission.SourceTimeout, "", "SQLite (Recommended)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := permission.NewBoard()
			events := b.Subscribe(t.Context())
			tk := ask(b, "s", qs...)
			asked := fromBoard(<-events, "", time.Now())
			assert.Equal(t, Asked, asked.Event)
			require.NoError(t, c.resolve(b, tk.ID))
			ev := fromBoard(<-events, deskURL, time.Now())
			assert.Equal(t, c.event, ev.Event)
			assert.Equal(t, c.source, ev.Source)
			assert.Equal(t, c.reason, ev.Reason)
			assert.Equal(t, deskURL, ev.DeskURL)
			assert.Equal(t, qs, ev.Questions)
			if c.answer == "" {
				assert.Empty(t, ev.Answers)
			} else {
				require.Len(t, ev.Answers, 1)
				assert.Equal(t, c.answer, ev.Answers[0].Answer)
				assert.Equal(t, "Database", ev.Answers[0].Header)
			}
		})
	}
}

func TestEventTitleAndText(t *testing.T) {
	e := Event{Event: Asked, Questions: []permission.Question{question("Which database?", "Database", "Postgres", "SQLite")}}
	assert.Equal(t, "Database: Which database?", e.Title())
	assert.Equal(t, "  - Postgres: about Postgres\n  - SQLite: about SQLite", e.Text(), "the title has the question")

	long := strings.Repeat("very ", 40) + "long?"
	e = Event{Event: Asked, DeskURL: deskURL, Questions: []permission.Question{question(long, "Long", "a", "b"), question("Two?", "Two", "c", "d")}}
	assert.Equal(t, titleRunes+len(" (+1 more)"), len([]rune(e.Title())))
	assert.True(t, strings.HasSuffix(e.Title(), "… (+1 more)"), e.Title())
	assert.Equal(t, long+"\n  - a: about a\n  - b: about b\n\nTwo: Two?\n  - c: about c\n  - d: about d\n\nAnswer at the desk: "+deskURL, e.Text(),
		"a cut question is spelled out; the desk link ends it")

	e = Event{Event: Cancelled, Source: permission.SourceDesk, Reason: "rejected at the answer desk", DeskURL: deskURL,
		Questions: []permission.Question{question("Q?", "Q?", "a", "b")}}
	assert.Equal(t, "Cancelled at the desk: Q?", e.Title(), "a header equal to the question is said once")
	assert.Equal(t, "rejected at the answer desk", e.Text())

	e = Event{Event: Timeout, Answers: []Answer{{Header: "H", Answer: "a"}}, Questions: []permission.Question{question("Q?", "H", "a", "b")}}
	assert.Equal(t, "Timed out: H: Q?", e.Title())
	assert.Equal(t, "H: a", e.Text())
}

// Without a consumer Close returns at once, and twice is fine.
func TestCloseWithoutConsumers(t *testing.T) {
	b := permission.NewBoard()
	n, err := Start(b, Options{})
	require.NoError(t, err)
	ask(b, "s", question("Q?", "H", "a", "b"))
	begin := time.Now()
	n.Close()
	n.Close()
	// Waiting for a consumer would take closeGrace.
	assert.Less(t, time.Since(begin), closeGrace/2)
}

func TestAnExpiringQuestionIsALastCall(t *testing.T) {
	deadline := time.Now().Add(time.Minute)
	p := permission.Pending{ID: "q1", State: permission.StatePending, Deadline: &deadline,
		Questions: []permission.Question{{Question: "Which?", Header: "Pick"}}}
	e := fromBoard(permission.Event{Type: permission.EventExpiring, Pending: p}, "", time.Now())
	if e.Event != Expiring || e.Deadline == nil || !e.Deadline.Equal(deadline) {
		t.Fatalf("got %q with deadline %v", e.Event, e.Deadline)
	}
	if !(&desktop{}).wants(e) {
		t.Fatal("the desktop is told of an expiring question")
	}
	if got := e.Title(); got != "Answer soon: Pick: Which?" {
		t.Fatalf("title %q", got)
	}
	if e := fromBoard(permission.Event{Type: permission.EventAsked, Pending: p}, "", time.Now()); e.Event != Asked {
		t.Fatalf("asked became %q", e.Event)
	}
}

// A notification of a question with a link carries the address in full.
func TestEventTextHasTheLinkInFull(t *testing.T) {
	link := "https://auth.openai.com/codex/device?" + strings.Repeat("a", 300)
	e := Event{Event: Asked, Kind: permission.KindQuestion, Questions: []permission.Question{{Header: "Open link",
		Question: "Sign in to ChatGPT and enter this code: ABCD-12345", Kind: permission.AnswerKind{Link: true}, Link: link,
		Options: []permission.Option{{Label: "I opened it"}, {Label: "Cancel"}}}}}
	assert.Contains(t, e.Title(), "ABCD-12345")
	assert.Contains(t, e.Text(), "Link (askbridge does not open it): "+link+"\n", "in full, not shortened")
}
