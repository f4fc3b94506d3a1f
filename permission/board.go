package permission

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Errors of Board.Answer and Board.Cancel.
var (
	ErrUnknown  = errors.New("no such question")
	ErrResolved = errors.New("question already resolved")
	// ErrStale is Progress answering a step the set has moved past.
	ErrStale = errors.New("question set moved on to its follow-ups")
)

// States of a question set.
const (
	StatePending   = "pending"
	StateAnswered  = "answered"
	StateCancelled = "cancelled"
	StateTimeout   = "timeout"
)

// ReasonTimeout, given to Cancel, resolves a set as timed out.
const ReasonTimeout = "timeout"

// Sources of a result: where a set was answered or cancelled from.
const (
	SourceClient   = "client"   // the editor's permission requests (the default)
	SourceDesk     = "desk"     // the answer desk
	SourceTerminal = "terminal" // a terminal prompter
	SourceHub      = "hub"      // askbridge hub, the inbox of every askbridge
	SourceTimeout  = "timeout"  // --question-timeout, whatever it resolved to
)

// Event types a board publishes.
const (
	EventAsked    = "question.asked"
	EventReplied  = "question.replied"
	EventRejected = "question.rejected"
)

// Pending is a question set on the board, as front ends show it.
type Pending struct {
	ID         string     `json:"id"`
	Kind       string     `json:"kind"` // KindQuestion or KindApproval
	Approval   *Approval  `json:"approval,omitempty"`
	SessionID  string     `json:"sessionID"`
	ToolCallID string     `json:"toolCallID,omitempty"`
	Questions  []Question `json:"questions"`
	// Asking are the questions a front end answers now: the set's own, then,
	// once Progress took answers whose picks bring follow-ups, those.
	Asking []Asked `json:"asking"`
	// Answered are the answers Progress took so far; Step counts its steps.
	Answered []Answered `json:"answered,omitempty"`
	Step     int        `json:"step"`
	Round    int        `json:"round"`
	Asked    time.Time  `json:"asked"`
	State    string     `json:"state"`
	// Deadline is when the set times out, when it can; an interaction
	// at the desk holds it off (Board.Hold).
	Deadline *time.Time `json:"deadline,omitempty"`
	Result   *Result    `json:"result,omitempty"`
	Claim    *Claim     `json:"claim,omitempty"` // who answers it (claim.go); may have lapsed
	Note     string     `json:"note,omitempty"`  // what its card says beside the questions (Board.Note)
}

// Event is a change on the board.
type Event struct {
	Type    string  `json:"type"`
	Pending Pending `json:"properties"`
}

// Board holds the question sets in flight so that several front ends (the
// client's permission requests, the answer desk, a timeout) can race: the
// first to resolve a set wins, later ones get ErrResolved.
type Board struct {
	seq atomic.Int64

	mu       sync.Mutex
	tickets  map[string]*Ticket
	history  map[string][]*Ticket // session -> its sets, in round order
	rounds   map[string]int       // session -> rounds asked
	turn     map[string]int       // session -> rounds in the current prompt turn
	watchers map[*watcher]struct{}
	logger   *slog.Logger // SetLogger
}

// NewBoard returns an empty board.
func NewBoard() *Board {
	return &Board{
		tickets:  map[string]*Ticket{},
		history:  map[string][]*Ticket{},
		rounds:   map[string]int{},
		turn:     map[string]int{},
		watchers: map[*watcher]struct{}{},
	}
}

// Ticket is one question set on the board. What the board shows (p) has
// its secret answers Redacted; the answers as typed, which only the asker
// gets, are kept beside it.
type Ticket struct {
	ID     string
	seq    int64
	board  *Board
	ctx    context.Context
	cancel context.CancelFunc
	p      Pending // guarded by board.mu

	answered []Answered // p.Answered as typed; guarded by board.mu
	result   *Result    // p.Result as typed; guarded by board.mu
}

// Done is closed once the set is resolved.
func (t *Ticket) Done() <-chan struct{} { return t.ctx.Done() }

// Context is cancelled once the set is resolved, by whoever resolved it.
func (t *Ticket) Context() context.Context { return t.ctx }

// Result is the set's result; valid once Done is closed.
func (t *Ticket) Result() Result {
	t.board.mu.Lock()
	defer t.board.mu.Unlock()
	if t.result == nil {
		return Result{Cancelled: true, Reason: "not resolved"}
	}
	return *t.result
}

// NextRound counts a new question set in session and returns its round
// number (from 1, across the session). ok is false when the current prompt
// turn already had max sets; max <= 0 means no limit.
func (b *Board) NextRound(session string, max int) (round int, ok bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if max > 0 && b.turn[session] >= max {
		return b.rounds[session], false
	}
	b.turn[session]++
	b.rounds[session]++
	return b.rounds[session], true
}

// ResetTurn starts a new prompt turn in session: the per-turn count of
// NextRound starts again; round numbers go on.
func (b *Board) ResetTurn(session string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.turn, session)
}

// Open puts a question set on the board.
func (b *Board) Open(req Request) *Ticket {
	ctx, cancel := context.WithCancel(context.Background())
	seq := b.seq.Add(1)
	t := &Ticket{
		ID:     "q" + strconv.FormatInt(seq, 10),
		seq:    seq,
		board:  b,
		ctx:    ctx,
		cancel: cancel,
		p: Pending{SessionID: req.SessionID, ToolCallID: req.ToolCallID, Questions: req.Questions,
			Round: req.Round, Asked: time.Now(), State: StatePending, Kind: KindQuestion, Approval: req.Approval},
	}
	if req.Approval != nil {
		t.p.Kind = KindApproval
	}
	t.p.ID = t.ID
	if !req.Deadline.IsZero() {
		d := req.Deadline
		t.p.Deadline = &d
	}
	for i, q := range req.Questions {
		t.p.Asking = append(t.p.Asking, Asked{Question: q, Path: indexPath(i), Index: i})
	}
	b.mu.Lock()
	b.tickets[t.ID] = t
	b.history[req.SessionID] = append(b.history[req.SessionID], t)
	b.publish(EventAsked, t.p)
	b.mu.Unlock()
	return t
}

// Answer resolves a pending set with r; r.Source says from where, and is
// SourceClient when empty.
func (b *Board) Answer(id string, r Result) error {
	if r.Source == "" {
		r.Source = SourceClient
	}
	state, event := StateAnswered, EventReplied
	if r.Cancelled {
		state, event = StateCancelled, EventRejected
	}
	return b.resolve(id, r, state, event)
}

// Cancel resolves a pending set as cancelled, or as timed out when reason
// is ReasonTimeout; the source is SourceTimeout then, else SourceClient.
func (b *Board) Cancel(id, reason string) error {
	source := SourceClient
	if reason == ReasonTimeout {
		source = SourceTimeout
	}
	return b.CancelFrom(id, source, reason)
}

// CancelFrom is Cancel by a named source, such as SourceDesk.
func (b *Board) CancelFrom(id, source, reason string) error {
	state := StateCancelled
	if reason == ReasonTimeout {
		state = StateTimeout
	}
	return b.resolve(id, Result{Cancelled: true, Reason: reason, Source: source}, state, EventRejected)
}

func (b *Board) resolve(id string, r Result, state, event string) error {
	b.mu.Lock()
	t, err := b.pending(id)
	if err == nil {
		b.settle(t, r, state, event)
	}
	b.mu.Unlock()
	return err
}

// pending is the pending set id; b.mu is held.
func (b *Board) pending(id string) (*Ticket, error) {
	t, ok := b.tickets[id]
	switch {
	case !ok:
		return nil, ErrUnknown
	case t.p.State != StatePending:
		return nil, ErrResolved
	}
	return t, nil
}

// settle resolves t; b.mu is held.
func (b *Board) settle(t *Ticket, r Result, state, event string) {
	shown := r.Redacted()
	t.p.State = state
	t.p.Result, t.result = &shown, &r
	b.publish(event, t.p)
	t.cancel()
}

// Get returns the set with the given id.
func (b *Board) Get(id string) (Pending, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	t, ok := b.tickets[id]
	if !ok {
		return Pending{}, false
	}
	return t.p, true
}

// List returns the pending sets, oldest first.
func (b *Board) List() []Pending {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []Pending
	for _, ts := range b.history {
		for _, t := range ts {
			if t.p.State == StatePending {
				out = append(out, t.p)
			}
		}
	}
	slices.SortStableFunc(out, func(x, y Pending) int { return x.Asked.Compare(y.Asked) })
	return out
}

// Sessions returns the sessions that asked, in the order of their first set.
func (b *Board) Sessions() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]string, 0, len(b.history))
	for s := range b.history {
		out = append(out, s)
	}
	slices.SortFunc(out, func(x, y string) int { return cmp.Compare(b.history[x][0].seq, b.history[y][0].seq) })
	return out
}

// History returns every set asked in session, in round order; ok is false
// for a session the board has never seen.
func (b *Board) History(session string) ([]Pending, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	ts, ok := b.history[session]
	out := make([]Pending, len(ts))
	for i, t := range ts {
		out[i] = t.p
	}
	return out, ok
}
