package permission

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Errors of the board's door (Settle, Withdraw, ProgressBy).
var (
	ErrUnknown  = errors.New("no such question")
	ErrResolved = errors.New("question already resolved")
	// ErrStale is Progress answering a step the set has moved past.
	ErrStale = errors.New("question set moved on to its follow-ups")
)

// ReasonTimeout, given to Cancel, resolves a set as timed out.
const ReasonTimeout = "timeout"

// Pending is a question set on the board, as front ends show it.
type Pending struct {
	ID         string     `json:"id"`
	Kind       Kind       `json:"kind"`
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
	State    State      `json:"state"`
	// Deadline is when the set times out, when it can; an interaction
	// at the desk holds it off (Board.Hold).
	Deadline *time.Time `json:"deadline,omitempty"`
	Result   *Result    `json:"result,omitempty"`
	Claim    *Claim     `json:"claim,omitempty"` // who answers it (claim.go); may have lapsed
	Note     string     `json:"note,omitempty"`  // what its card says beside the questions (Board.Note)
	// Context is what the agent said and planned before it asked.
	Context *Context `json:"context,omitempty"`
	// Origin is where the set comes from, as its card shows it (Origin.Of:
	// its session's folder, mode and subagent), as the board knows it now
	// (Board.Describe, boardorigin.go); nil where the board was told
	// nothing. The board's to fill, never a poster's: not in the set's JSON
	// (an askbridge's sets reach the hub as JSON).
	Origin *Origin `json:"-"`
}

// Event is a change on the board.
type Event struct {
	Type    EventType `json:"type"`
	Pending Pending   `json:"properties"`
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
	sources  map[string]*source // Request.From -> where its sets come from (boardorigin.go)
	logger   *slog.Logger       // SetLogger
	modes    ModeSwitcher       // HandleModes
}

// NewBoard returns an empty board.
func NewBoard() *Board {
	return &Board{
		tickets:  map[string]*Ticket{},
		history:  map[string][]*Ticket{},
		rounds:   map[string]int{},
		turn:     map[string]int{},
		watchers: map[*watcher]struct{}{},
		sources:  map[string]*source{},
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
	from   string  // Request.From

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

// Open puts a question set on the board.
func (b *Board) Open(req Request) *Ticket {
	ctx, cancel := context.WithCancel(context.Background())
	seq := b.seq.Add(1)
	t := &Ticket{
		ID:     "q" + strconv.FormatInt(seq, 10),
		seq:    seq,
		from:   req.From,
		board:  b,
		ctx:    ctx,
		cancel: cancel,
		p: Pending{SessionID: req.SessionID, ToolCallID: req.ToolCallID, Questions: req.Questions,
			Round: req.Round, Asked: time.Now(), State: StatePending, Kind: KindQuestion, Approval: req.Approval, Context: req.Context},
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
	b.source(req.From).tickets[t] = struct{}{}
	b.publish(EventAsked, t.p)
	b.mu.Unlock()
	return t
}
