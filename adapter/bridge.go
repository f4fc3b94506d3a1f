package adapter

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"time"

	"github.com/askbridge/askbridge/permission"
)

// Options configure the question bridge.
type Options struct {
	// Advertise adds form elicitation (and Qwen's askUserQuestion flag) to
	// the client's initialize when it lacks them, so agents offer their
	// question tools at all.
	Advertise bool
	// Render is "auto" (pass elicitations through to a client that renders
	// forms) or "permission" (always show questions as permission requests).
	Render string
	// QuestionTimeout, when non-zero, ends an unanswered question set.
	QuestionTimeout time.Duration
	// OnTimeout is "cancel" or "recommended" (answer with the option whose
	// label ends in "(Recommended)", else the first).
	OnTimeout string
	// MaxRounds limits question sets per prompt turn; 0 means no limit.
	MaxRounds int
	// Limits are the question limits for _askbridge/ask and the socket.
	Limits permission.Limits
	// Board holds the pending question sets; the desk answers through it.
	// Nil makes a board of the bridge's own.
	Board *permission.Board
	// OpenCode, when set, is the server of the OpenCode askbridge started:
	// its question tool calls are answered there.
	OpenCode *OpenCodeServer
	Logger   *slog.Logger
}

// Bridge turns the agents' questions into permission requests the client
// can show, and hands the answers back in each agent's own shape.
type Bridge struct {
	opts   Options
	board  *permission.Board
	logger *slog.Logger
	relay  *Relay

	mu         sync.Mutex
	clientForm bool                         // the client renders form elicitations itself
	asks       map[string]map[*ask]struct{} // session -> asks in flight
	byRequest  map[string]*ask              // agent request id -> its ask
	lastActive string                       // the session that last got a prompt
	cwd        map[string]string            // session -> working directory

	socket    net.Listener // the `askbridge ask` socket, once Listen ran
	socketDir string

	openCodeCalls map[string]bool // OpenCode tool calls already being answered
}

// ask is one question set in flight.
type ask struct {
	session string
	cancel  context.CancelCauseFunc
}

// errRoundLimit is the cause of a question set refused by --max-rounds.
var errRoundLimit = errors.New("question limit reached")

// NewBridge returns a bridge; Setup installs it on a relay.
func NewBridge(opts Options) *Bridge {
	if opts.Board == nil {
		opts.Board = permission.NewBoard()
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Render == "" {
		opts.Render = "auto"
	}
	return &Bridge{
		opts:      opts,
		board:     opts.Board,
		logger:    opts.Logger,
		asks:      map[string]map[*ask]struct{}{},
		byRequest: map[string]*ask{},
		cwd:       map[string]string{},
	}
}

// Setup installs the bridge's interceptors; it fits Config.Setup.
func (b *Bridge) Setup(r *Relay) func() {
	b.relay = r
	r.FromClient("initialize", b.onInitialize)
	r.FromClient("session/new", b.onSessionStart)
	r.FromClient("session/load", b.onSessionStart)
	r.FromClient("session/prompt", b.onPrompt)
	r.FromClient("session/cancel", b.onSessionCancel)
	r.FromAgent("elicitation/create", b.onElicitation)
	r.FromAgent("session/request_permission", b.onPermissionRequest)
	r.FromAgent(AskMethod, b.onAsk)
	r.FromAgent("$/cancel_request", b.onAgentCancelRequest)
	if b.opts.OpenCode != nil {
		r.FromAgent("session/update", b.onSessionUpdate)
	}
	stopSocket := b.serveSocket()
	return func() {
		stopSocket()
		b.cancelAll(ErrPeerGone)
	}
}

// ClientRendersForms reports whether questions pass through as forms.
func (b *Bridge) ClientRendersForms() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.clientForm && b.opts.Render != "permission"
}

func (b *Bridge) onPrompt(m *Message) Verdict {
	var p struct {
		SessionID string `json:"sessionId"`
	}
	if m.Params(&p) == nil && p.SessionID != "" {
		b.mu.Lock()
		b.lastActive = p.SessionID
		b.mu.Unlock()
		b.board.ResetTurn(p.SessionID)
	}
	return Pass
}

// onSessionStart learns each session's working directory from the request
// and its id from the response.
func (b *Bridge) onSessionStart(m *Message) Verdict {
	var p struct {
		SessionID string `json:"sessionId"`
		Cwd       string `json:"cwd"`
	}
	if m.Params(&p) != nil {
		return Pass
	}
	if p.SessionID != "" {
		b.noteSession(p.SessionID, p.Cwd)
		return Pass
	}
	return Verdict{OnResponse: func(resp json.RawMessage) json.RawMessage {
		var r struct {
			Result struct {
				SessionID string `json:"sessionId"`
			} `json:"result"`
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

// sessionCwd is the working directory the client gave the session.
func (b *Bridge) sessionCwd(id string) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.cwd[id]
}

// activeSession is the session named, else the one most recently active.
func (b *Bridge) activeSession(named string) string {
	if named != "" {
		return named
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.lastActive
}

func (b *Bridge) onSessionCancel(m *Message) Verdict {
	var p struct {
		SessionID string `json:"sessionId"`
	}
	if m.Params(&p) == nil {
		b.cancelSession(p.SessionID, errors.New("session/cancel"))
	}
	return Pass
}

// onAgentCancelRequest ends the question set behind an agent request the
// bridge took; a cancel for anything else goes on to the client.
func (b *Bridge) onAgentCancelRequest(m *Message) Verdict {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if m.Params(&p) != nil || p.RequestID == nil {
		return Pass
	}
	b.mu.Lock()
	a := b.byRequest[idKey(p.RequestID)]
	b.mu.Unlock()
	if a == nil {
		return Pass
	}
	a.cancel(errors.New("the agent cancelled the request"))
	return Verdict{Take: true}
}

// begin registers a question set of session, started by the agent request
// reqID (nil when it came another way), and returns its context.
func (b *Bridge) begin(parent context.Context, session string, reqID json.RawMessage) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	a := &ask{session: session, cancel: cancel}
	b.mu.Lock()
	if b.asks[session] == nil {
		b.asks[session] = map[*ask]struct{}{}
	}
	b.asks[session][a] = struct{}{}
	if reqID != nil {
		b.byRequest[idKey(reqID)] = a
	}
	b.mu.Unlock()
	return ctx, func() {
		b.mu.Lock()
		delete(b.asks[session], a)
		if len(b.asks[session]) == 0 {
			delete(b.asks, session)
		}
		if reqID != nil {
			delete(b.byRequest, idKey(reqID))
		}
		b.mu.Unlock()
		cancel(nil)
	}
}

func (b *Bridge) cancelSession(session string, cause error) {
	b.mu.Lock()
	var list []*ask
	for a := range b.asks[session] {
		list = append(list, a)
	}
	b.mu.Unlock()
	for _, a := range list {
		a.cancel(cause)
	}
}

func (b *Bridge) cancelAll(cause error) {
	b.mu.Lock()
	var list []*ask
	for _, set := range b.asks {
		for a := range set {
			list = append(list, a)
		}
	}
	b.mu.Unlock()
	for _, a := range list {
		a.cancel(cause)
	}
}

// askClient asks a question set through the board, so that the client's
// permission requests, the desk and the timeout race, and the first answer
// wins. It returns a cancelled result when ctx ends first, and errRoundLimit
// when the turn has used up its rounds.
func (b *Bridge) askClient(ctx context.Context, req permission.Request) (permission.Result, error) {
	round, ok := b.board.NextRound(req.SessionID, b.opts.MaxRounds)
	if !ok {
		b.tellRoundLimit(req.SessionID)
		return permission.Result{}, errRoundLimit
	}
	req.Round = round
	ticket := b.board.Open(req)
	b.logger.Info("asking", "session", req.SessionID, "round", round, "questions", len(req.Questions), "ticket", ticket.ID)

	if req.ToolCallID == "" {
		req.ToolCallID, req.OwnToolCall = newToolCallID(), true
	}
	flowCtx, stopFlow := context.WithCancel(ticket.Context())
	defer stopFlow()
	flowDone := make(chan bool, 1) // whether the flow settled the set itself
	go func() {
		res, err := permission.Ask(flowCtx, clientPeer{b.relay.Client}, req)
		switch {
		case err == nil && flowCtx.Err() == nil:
			flowDone <- b.board.Answer(ticket.ID, res) == nil
		case err == nil || flowCtx.Err() != nil:
			flowDone <- false // answered elsewhere or cancelled: the ticket says which
		default:
			b.logger.Warn("asking the client failed", "err", err)
			b.board.Cancel(ticket.ID, err.Error())
			flowDone <- false
		}
	}()
	var timeout <-chan time.Time
	if b.opts.QuestionTimeout > 0 {
		t := time.NewTimer(b.opts.QuestionTimeout)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case <-ticket.Done():
	case <-ctx.Done():
		b.board.Cancel(ticket.ID, context.Cause(ctx).Error())
	case <-timeout:
		b.onQuestionTimeout(ticket.ID, req)
	}
	<-ticket.Done()
	res := ticket.Result()
	if settled := <-flowDone; !settled {
		// The desk, a timeout or a cancel ended the set: show how.
		permission.Report(context.Background(), clientPeer{b.relay.Client}, req, res)
	}
	return res, nil
}

func (b *Bridge) onQuestionTimeout(id string, req permission.Request) {
	b.logger.Info("question timed out", "ticket", id, "after", b.opts.QuestionTimeout, "on-timeout", b.opts.OnTimeout)
	if b.opts.OnTimeout == "recommended" {
		b.board.Answer(id, permission.Recommended(req.Questions))
		return
	}
	b.board.Cancel(id, permission.ReasonTimeout)
}

// roundLimitMessage is what the model reads when a turn asked too often.
func (b *Bridge) roundLimitMessage() string {
	return fmt.Sprintf("question limit of %d reached in this turn; continue with what you know or ask in the chat", b.opts.MaxRounds)
}

// tellRoundLimit shows the client why a question was not shown.
func (b *Bridge) tellRoundLimit(session string) {
	b.logger.Warn("question limit reached", "session", session, "max-rounds", b.opts.MaxRounds)
	b.relay.Client.Notify("session/update", map[string]any{
		"sessionId": session,
		"update": map[string]any{
			"sessionUpdate": "tool_call",
			"toolCallId":    newToolCallID(),
			"title":         "askbridge: " + b.roundLimitMessage(),
			"kind":          "think",
			"status":        "failed",
		},
	})
}

// clientPeer is the client as permission.Ask sees it.
type clientPeer struct{ p *Peer }

func (c clientPeer) RequestPermission(ctx context.Context, params []byte) ([]byte, error) {
	return c.p.Call(ctx, "session/request_permission", json.RawMessage(params))
}

func (c clientPeer) Notify(ctx context.Context, method string, params any) error {
	return c.p.Notify(method, params)
}

// newToolCallID is a fresh id for a tool call askbridge shows itself.
func newToolCallID() string {
	b := make([]byte, 8)
	rand.Read(b)
	return "askbridge-" + hex.EncodeToString(b)
}
