package nextprompt

import (
	"fmt"
	"log/slog"
	"strings"
	"sync"

	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/internal/notes"
)

// Late says how an answer given after the agent stopped waiting reaches
// it.
type Late int

const (
	// WithPrompt, the zero value: with the user's next prompt.
	WithPrompt Late = iota
	// AsPrompt: as a prompt of its own, once no turn runs in the session.
	AsPrompt
)

var lateNames = []string{"next-prompt", "prompt"}

// String is the flag spelling.
func (l Late) String() string { return lateNames[l] }

// Set parses the flag spelling, so Late is a flag.Value.
func (l *Late) Set(s string) error {
	for i, n := range lateNames {
		if s == n {
			*l = Late(i)
			return nil
		}
	}
	return fmt.Errorf("must be one of %s", strings.Join(lateNames, ", "))
}

// Config is what a Queue needs.
type Config struct {
	Late Late
	// Notes, when set, keeps what the next prompt gets past this process
	// (store.go).
	Notes *notes.Store
	// Tell shows the client askbridge's words in a session.
	Tell   func(session, text string)
	Logger *slog.Logger
}

// late is a text kept for a session's next prompt: a late answer (its line
// of lateText), or a note (Note). id is its file in the notes store
// (store.go), "" when it is kept in memory only.
type late struct {
	text string
	id   string
}

// Queue holds the notes and late answers of each session until they are
// delivered, and what it needs to know to deliver them: the turns running.
type Queue struct {
	cfg   Config
	relay *relay.Relay

	mu     sync.Mutex
	queued map[string][]late // session -> answers not delivered yet
	turns  map[string]int    // session -> the client's prompts running
	own    map[string]bool   // session -> askbridge's own prompt running
	held   map[string][]func()
	notes  map[string][]late // session -> texts for the next prompt, oldest first
}

// New returns an empty queue; Attach gives it its relay.
func New(cfg Config) *Queue {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Queue{cfg: cfg, queued: map[string][]late{}, turns: map[string]int{}, own: map[string]bool{},
		held: map[string][]func(){}, notes: map[string][]late{}}
}

// Attach is the relay the queue's own prompts go out on. Call it before
// the relay starts.
func (q *Queue) Attach(r *relay.Relay) { q.relay = r }

// take removes and returns session's late answers; q.mu is held.
func (q *Queue) take(session string) []late {
	a := q.queued[session]
	delete(q.queued, session)
	return a
}

// Note queues text for the model, with the user's next prompt in session:
// the same queue as the session's late answers, so one rewrite of the
// prompt carries both, notes first.
func (q *Queue) Note(session, text string) {
	n := q.keep(session, notes.KindNote, text, true)
	q.mu.Lock()
	defer q.mu.Unlock()
	q.notes[session] = append(q.notes[session], n)
}

// AddLate queues a late answer's line (notes.LateLine) and, with AsPrompt,
// sends it at once when the session is idle. persist false keeps it in
// memory only: an answer to a secret question is never written.
func (q *Queue) AddLate(session, line string, persist bool) {
	a := q.keep(session, notes.KindLate, line, persist)
	q.mu.Lock()
	q.queued[session] = append(q.queued[session], a)
	idle := q.turns[session] == 0 && !q.own[session]
	q.mu.Unlock()
	q.cfg.Logger.Info("a late answer waits for the agent", "session", session, "late-answers", q.cfg.Late)
	if q.cfg.Late == AsPrompt && idle {
		q.promptLate(session)
	}
}

// Late is how many late answers of session wait for the agent.
func (q *Queue) Late(session string) int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.queued[session])
}

// lateText is the text block that hands the model its late answers.
func lateText(answers []late) string {
	var sb strings.Builder
	sb.WriteString("[askbridge] The user answered after your ask_user_question call had ended without their answer. ")
	sb.WriteString("Take these answers into account:")
	for _, a := range answers {
		sb.WriteString("\n" + a.text)
	}
	return sb.String()
}
