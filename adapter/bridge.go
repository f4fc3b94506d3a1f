package adapter

import (
	"encoding/json"
	"github.com/askbridge/askbridge/internal/notes"
	"log/slog"
	"sync"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/askbridge/askbridge/adapter/acpv2"
	"github.com/askbridge/askbridge/adapter/asksocket"
	"github.com/askbridge/askbridge/adapter/cardcontext"
	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/modes"
	"github.com/askbridge/askbridge/adapter/nextprompt"
	"github.com/askbridge/askbridge/adapter/record"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/adapter/subagent"
	"github.com/askbridge/askbridge/adapter/uncontained"
	"github.com/askbridge/askbridge/permission"
)

// Options configure the question bridge. The zero value is usable.
type Options struct {
	// Advertise adds what the dialects need to the client's initialize
	// (Advertiser), so agents offer their question tools at all.
	Advertise bool
	Render    Render // RenderAuto: as the client table says (Clients)
	Routing          // where questions are asked; automatic answers (questions.go)
	// QuestionTimeout, when non-zero, ends an unanswered question set.
	QuestionTimeout time.Duration
	OnTimeout       OnTimeout
	// Approvals says where the agent's own permission requests are
	// answered; ApprovalTimeout, when non-zero, ends one nobody answered
	// (as its reject_once option). QuestionTimeout never ends one.
	Approvals       Approvals
	ApprovalTimeout time.Duration
	// MaxRounds limits question sets per prompt turn; 0 means no limit.
	MaxRounds int
	// Limits are the question limits; the zero value means
	// permission.DefaultLimits.
	Limits permission.Limits
	// Board holds the pending question sets; the desk answers through it.
	// Nil makes a board of the bridge's own.
	Board *permission.Board
	// Attended reports whether anything but the client shows a set on the
	// board: Elsewhere's desk and hub, or a notifier. Nil means nothing.
	Attended func() bool
	// LateAnswers says how an answer given after the agent's MCP host
	// stopped waiting reaches the agent (race.go, package nextprompt).
	LateAnswers LateAnswers
	// Notes, when set, keeps what the next prompt gets (denials' reasons,
	// late answers) past this process (package nextprompt).
	Notes *notes.Store
	// Routes, when set, names the ways besides the client that can answer
	// a set now, and what is missing when there are none (noroute.go).
	Routes func(approval bool) (routes []string, missing string)
	// Dialects are the dialects spoken; nil means Dialects().
	Dialects []dialect.Dialect
	// Agent is the agent's command line: an agent-specific default
	// (dialect.Targeted) goes only to its own agent, or to a command that
	// names no agent askbridge knows. Nil names none.
	Agent []string
	// AskSocket is the ask socket (ListenAsk), which the bridge serves and
	// closes; nil: none, unless Listen opens one.
	AskSocket *AskSocket
	// OnMode, when set, hears every session's mode as its agent reports
	// it (package modes), for the cards that show it.
	OnMode func(session string, m SessionMode)
	Logger *slog.Logger
}

// Bridge turns the agents' questions into permission requests the client
// can show, and hands the answers back in each agent's own shape.
type Bridge struct {
	opts     Options
	board    *permission.Board
	rec      *record.Recording // what askbridge adds to --record's recording
	logger   *slog.Logger
	relay    *relay.Relay
	dialects []dialect.Dialect

	mu         sync.Mutex
	clientForm bool                         // the client renders form elicitations itself
	clientURL  bool                         // the client renders URL elicitations itself
	client     Client                       // the client table's entry for the client
	asks       map[string]map[*ask]struct{} // session -> asks in flight
	byRequest  map[string]*ask              // agent request id -> its ask
	lastActive string                       // the session that last got a prompt
	cwd        map[string]string            // session -> working directory
	inflight   sync.WaitGroup               // question sets being served
	finished   recentIDs                    // agent requests the bridge answered
	proto      acpv2.Conn                   // the version both sides agreed
	subs       subagent.Register            // child sessions

	socket *asksocket.Socket // the `askbridge ask` socket, once Listen ran

	late        *nextprompt.Queue    // what the sessions' next prompts get
	waitingLate map[string]struct{}  // sets kept for a late answer, to end as askbridge stops
	uncontained string               // what the editor's permission requests say of an uncontained agent
	modes       modes.Tracker        // the sessions' modes
	context     cardcontext.Sessions // the agents' last words and plans
	routeTiming routeTiming          // noroute.go's pace; zero: its constants
}

// NewBridge returns a bridge; Setup installs it on a relay. A dialect whose
// declared hooks cannot work is left out, logged (dialectcheck.go).
func NewBridge(opts Options) *Bridge {
	if opts.Board == nil {
		opts.Board = permission.NewBoard()
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Dialects == nil {
		opts.Dialects = Dialects()
	}
	opts.Dialects = sound(opts.Dialects, opts.Logger)
	if opts.Limits == (permission.Limits{}) {
		opts.Limits = permission.DefaultLimits()
	}
	b := &Bridge{
		opts:      opts,
		board:     opts.Board,
		logger:    opts.Logger,
		dialects:  opts.Dialects,
		asks:      map[string]map[*ask]struct{}{},
		byRequest: map[string]*ask{},
		cwd:       map[string]string{},

		waitingLate: map[string]struct{}{},
	}
	b.late = nextprompt.New(nextprompt.Config{Late: opts.LateAnswers, Notes: opts.Notes, Tell: b.tellClient, Logger: opts.Logger})
	b.proto.Logger = opts.Logger
	b.socket = opts.AskSocket
	return b
}

// Setup installs the bridge's interceptors and every dialect's hooks, in
// table order; it fits relay.RunConfig.Setup.
func (b *Bridge) Setup(r *relay.Relay) func() {
	b.relay = r
	b.rec = record.Install(r)
	b.late.Attach(r)
	stopDesk := b.rec.Desk(b.board)
	r.FromClient(acp.AgentMethodInitialize, b.onInitialize)
	r.FromClient(acp.AgentMethodSessionNew, b.onSessionStart)
	r.FromClient(acp.AgentMethodSessionLoad, b.onSessionStart)
	r.FromClient(acp.AgentMethodSessionPrompt, b.onPrompt)
	r.FromClient(acp.AgentMethodSessionCancel, b.onSessionCancel)
	r.FromAgent(cancelRequestMethod, b.onAgentCancelRequest)
	b.installDialects()
	b.proto.Install(r) // after the dialects: it sees what they added
	b.subs.Follow(r, subagent.Hooks{Cancel: b.cancelSession, V2: b.proto.V2, Logger: b.logger})
	b.modes.Follow(r, modes.Config{Dialects: b.dialects, OnMode: b.opts.OnMode, Tell: b.tellClient,
		WarnUnasked: b.opts.Approvals != ApprovalsClient, Logger: b.logger})
	b.context.Follow(r)
	b.board.HandleModes(b.modes.Switch)
	if b.uncontained != "" {
		uncontained.Mark(r, b.uncontained) // after the dialects: a request one takes is not marked
	}
	stopSocket := b.socket.Serve(b.askFromSocket, b.logger)
	return func() {
		stopSocket()
		b.Drain(errShutdown, 5*time.Second)
		b.closeDialects()
		stopDesk() // before the relay's last Flush
	}
}

// AskSocket is the ask socket (package asksocket), opened before the
// bridge is made.
type AskSocket = asksocket.Socket

// ListenAsk opens the ask socket in a folder only the user can open.
func ListenAsk() (*AskSocket, error) { return asksocket.Listen() }

// Listen opens the ask socket for a bridge made without one
// (Options.AskSocket) and returns the variables to add to the agent's
// environment. Call it before the agent starts.
func (b *Bridge) Listen() ([]string, error) {
	s, err := asksocket.Listen()
	if err != nil {
		return nil, err
	}
	b.socket = s
	return s.Env(), nil
}

// Close removes the ask socket. Setup's cleanup does it too; call it when
// the relay may never have started (the agent could not be started).
func (b *Bridge) Close() { b.socket.Close() }

// Drain cancels every question set in flight and waits, at most limit, for
// their answers to reach the agent: each gets its dialect's cancel.
func (b *Bridge) Drain(cause error, limit time.Duration) {
	b.cancelAll(cause)
	b.cancelLate(cause)
	done := make(chan struct{})
	go func() { b.inflight.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(limit):
		b.logger.Warn("question sets still open after shutdown began", "waited", limit)
	}
}

// sessionRef is the part of session/prompt, session/cancel, session/new and
// session/load the bridge reads; decoding the whole request into the SDK's
// types would fail on a future variant of a field it does not need.
type sessionRef struct {
	SessionID string `json:"sessionId"`
	Cwd       string `json:"cwd"`
}

func (b *Bridge) onPrompt(m *relay.Message) relay.Verdict {
	// Found with a scan: a prompt may be long, and nothing else of it is read.
	if id, ok := relay.StringField(m.Raw, "params", "sessionId"); ok && id != "" {
		b.mu.Lock()
		b.lastActive = id
		b.mu.Unlock()
		b.board.ResetTurn(id)
		b.modes.Tell(id) // before the turn's approvals: said once per mode
		return b.late.Prompt(m, id)
	}
	return relay.Pass
}

// onSessionStart learns each session's working directory from the request
// and its id from the response.
func (b *Bridge) onSessionStart(m *relay.Message) relay.Verdict {
	var p sessionRef
	if m.Params(&p) != nil {
		return relay.Pass
	}
	if p.SessionID != "" {
		b.noteSession(p.SessionID, p.Cwd)
		return relay.Pass
	}
	return relay.Verdict{OnResponse: func(resp json.RawMessage) json.RawMessage {
		var r struct {
			Result sessionRef `json:"result"`
		}
		if json.Unmarshal(resp, &r) == nil && r.Result.SessionID != "" {
			b.noteSession(r.Result.SessionID, p.Cwd)
		}
		return nil
	}}
}

func (b *Bridge) noteSession(id, cwd string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.cwd[id] = cwd
	b.lastActive = id
}

// SessionCwd is the working directory the client gave the session.
func (b *Bridge) SessionCwd(id string) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.cwd[id]
}

// ActiveSession is the session named, else the one most recently active.
func (b *Bridge) ActiveSession(named string) string {
	if named != "" {
		return named
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.lastActive
}
