package dialect

import (
	"context"
	"encoding/json"
	"log/slog"

	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/permission"
)

// Dialect is one way agents ask the user a question: how it is recognised,
// how its input becomes a question set, how the outcome becomes its reply.
// The bridge owns everything in between (the board, rounds, cancellation,
// timeouts, permission requests or a form), so a dialect is one small type
// in one file, registered in Dialects.
type Dialect interface {
	// Name names the dialect in logs.
	Name() string
	// Hooks are the messages the dialect reads.
	Hooks() []Hook
	// Claim looks at one of those messages on the relay's reading goroutine
	// (it must not block) and returns the question set it carries, or nil
	// when the message is not the dialect's: it then goes on to the next
	// dialect hooked on the method, and on to the other side.
	Claim(h Host, m *relay.Message) *Claim
}

// Side is the side a hooked message comes from.
type Side int

const (
	FromAgent  Side = iota // the agent sends it (a question, usually)
	FromClient             // the client sends it
)

// Hook names a method a dialect reads, and who sends it.
type Hook struct {
	From   Side
	Method string
	// Updates, on session/update, are the update kinds the hook wants
	// (params.update.sessionUpdate); nil: every kind. The relay does not
	// ask the hook of any other.
	Updates []string
}

// Claim is a question set a dialect took from a message. The bridge checks
// it before anything else: a claim its Mode cannot serve (an unknown mode,
// a watched one without ReadResponse, an extension mode on a notification,
// no Questions or Reply) is refused, logged, and a request gets an error.
type Claim struct {
	SessionID  string
	ToolCallID string // the agent's tool call, when it has one
	// NewToolCall says the client never saw ToolCallID (codex-acp sends no
	// tool_call for its question): the bridge starts it and completes it,
	// as it does a tool call of its own. It is a fact about the tool call,
	// whatever the Mode.
	NewToolCall bool
	// Mode says how the set is asked (mode.go); the zero value is Ask.
	Mode Mode
	// Questions decodes and validates the set. It runs on a goroutine of its
	// own and may block; an error ends the set with Outcome.Status Invalid.
	Questions func(ctx context.Context) ([]permission.Question, error)
	// ReadResponse reads the client's response to the message as the set's
	// result, for the modes that watch it (Render, Mirror, Extension,
	// ExtensionForm).
	ReadResponse func(resp json.RawMessage) permission.Result
	// Approval marks the set as the agent's own permission request
	// (package approvals).
	Approval *permission.Approval
	// Withdrawn, when set, is closed when the agent withdraws the set in a
	// way of its own (elicitation/complete): the set ends as cancelled, as
	// on $/cancel_request.
	Withdrawn <-chan struct{}
	// Reply turns the outcome into the agent's answer: a result for the
	// request's id, or an error (an *relay.Error is sent as it is). A claim of a
	// message with no id delivers its answer itself and returns nil, nil.
	Reply func(ctx context.Context, o Outcome) (any, error)
}

// Status says how a question set ended.
type Status int

const (
	// Answered: Outcome.Result holds the answers (the user's, or the
	// recommended ones after a timeout with OnTimeoutRecommended).
	Answered Status = iota
	// Cancelled: the user dismissed it, the session was cancelled, the agent
	// withdrew its request, askbridge shut down, or the client failed.
	Cancelled
	// TimedOut: nobody answered within Options.QuestionTimeout.
	TimedOut
	// Refused: not asked, the turn used up Options.MaxRounds.
	// Outcome.Message says so in words for the model.
	Refused
	// Invalid: the questions cannot be asked; Outcome.Err says why.
	Invalid
)

// Outcome is how a question set ended, as a dialect's Reply sees it.
type Outcome struct {
	Status  Status
	Result  permission.Result
	Err     error  // Invalid
	Message string // Refused
}

// Host is what a dialect may use of the bridge.
type Host interface {
	// ClientRendersForms reports whether the client shows form
	// elicitations itself (and Render does not force permission requests).
	ClientRendersForms() bool
	// ClientRendersURLs reports whether the client shows URL elicitations
	// itself.
	ClientRendersURLs() bool
	// Attended reports whether anything but the client can answer a set
	// on the board (the desk, the hub, a notifier).
	Attended() bool
	// ActiveSession is named, or when empty the session that last got a
	// prompt.
	ActiveSession(named string) string
	// SessionCwd is the working directory the client gave the session.
	SessionCwd(id string) string
	Limits() permission.Limits
	// Approvals says where the agent's own permission requests go.
	Approvals() Approvals
	Logger() *slog.Logger
	// Client and relay.Agent write to the two sides.
	Client() *relay.Peer
	Agent() *relay.Peer
}

// Advertiser is a dialect that needs something in the client's initialize
// before its agent will ask at all.
type Advertiser interface {
	// Advertise lists what to add to initialize's params, each set unless
	// the client already says it.
	Advertise() []Default
}

// Default is a value set at Path in a JSON object unless present.
type Default struct {
	Path  []string
	Value json.RawMessage
}

// Launcher is a dialect that changes how its agent is started.
type Launcher interface {
	// Recognise reports whether argv starts this dialect's agent.
	Recognise(argv []string) bool
	// Launch returns the agent's command and the environment to add.
	Launch(argv []string) (cmd []string, env []string, err error)
}

// Rewriter is a dialect that also changes messages on their way, beyond
// the question sets it claims (MCPAsk lists its server in session/new).
// Its rewrites are installed before any dialect's hooks, in table order.
type Rewriter interface {
	Rewrites(h Host) []Rewrite
}

// Rewrite is a relay interceptor for one method and side.
type Rewrite struct {
	Hook
	Intercept relay.Interceptor
}
