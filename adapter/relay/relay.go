package relay

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"sync"
)

// Relay moves lines between the client and the agent. Per direction, lines
// leave in the order they arrived, and the reading goroutine never waits for
// a reply: requests are forwarded at once and their responses matched by id
// when they come back on the other side's loop.
type Relay struct {
	Client *Peer // askbridge writes to the client through it
	Agent  *Peer // askbridge writes to the agent through it

	logger    *slog.Logger
	rec       *recorder
	clientIn  *lineReader
	agentIn   *lineReader
	fromAgent map[string]*hookSet
	fromCli   map[string]*hookSet
	maxLine   int
	// beforeAgentRead run before the agent's side reads on (BeforeAgentRead).
	beforeAgentRead []func()

	mu sync.Mutex
	// Forwarded requests awaiting a response, by the direction they
	// travelled; once a side is gone, requests to it are answered at once.
	toAgent  *pending
	toClient *pending

	clientDone chan struct{}
	agentDone  chan struct{}
}

type forwarded struct {
	id         json.RawMessage
	method     string
	onResponse func(json.RawMessage) json.RawMessage
}

// Config holds the four streams and the options of a Relay.
type Config struct {
	ClientIn  io.Reader // what the client sends (askbridge's stdin)
	ClientOut io.Writer // to the client (askbridge's stdout)
	AgentIn   io.Reader // what the agent sends (the child's stdout)
	AgentOut  io.Writer // to the agent (the child's stdin)
	Record    io.Writer // when non-nil, every line both ways as JSONL
	Logger    *slog.Logger
	// MaxLine, when positive, is the longest line taken from either side,
	// in bytes; a longer one is refused with a JSON-RPC error (see refuse).
	MaxLine int
}

// New builds a relay; Start runs it.
func New(cfg Config) *Relay {
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	var rec *recorder
	if cfg.Record != nil {
		rec = newRecorder(cfg.Record)
	}
	clientIn, agentIn := newLineReader(cfg.ClientIn), newLineReader(cfg.AgentIn)
	clientIn.max, agentIn.max = cfg.MaxLine, cfg.MaxLine
	return &Relay{
		Client:     newPeer("client", AgentToClient, newLineWriter(cfg.ClientOut), rec),
		Agent:      newPeer("agent", ClientToAgent, newLineWriter(cfg.AgentOut), rec),
		logger:     logger,
		rec:        rec,
		clientIn:   clientIn,
		agentIn:    agentIn,
		maxLine:    cfg.MaxLine,
		fromAgent:  map[string]*hookSet{},
		fromCli:    map[string]*hookSet{},
		toAgent:    newPending(),
		toClient:   newPending(),
		clientDone: make(chan struct{}),
		agentDone:  make(chan struct{}),
	}
}

// FromClient adds fn to the chain of a method the client sends. Call
// before Start. Several interceptors may share a method; they run in the
// order they were added (see chain).
func (r *Relay) FromClient(method string, fn Interceptor) {
	addHook(r.fromCli, method, fn, nil)
}

// FromAgent adds fn to the chain of a method the agent sends. Call before
// Start.
func (r *Relay) FromAgent(method string, fn Interceptor) {
	addHook(r.fromAgent, method, fn, nil)
}

// FromAgentUpdates adds fn to session/update's chain for updates of the
// given kinds only (params.update.sessionUpdate): the relay reads a
// message's kind once and calls the hooks of that kind, so a hook that
// wants tool calls costs nothing on a message chunk. Call before Start.
func (r *Relay) FromAgentUpdates(fn Interceptor, kinds ...string) {
	if len(kinds) == 0 {
		panic("relay: FromAgentUpdates with no kind")
	}
	addHook(r.fromAgent, UpdateMethod, fn, kinds)
}

// Start runs both directions on goroutines of their own.
func (r *Relay) Start() {
	go r.loop(r.clientIn, r.Client, r.Agent, r.fromCli, r.toAgent, r.toClient, r.clientDone)
	go r.loop(r.agentIn, r.Agent, r.Client, r.fromAgent, r.toClient, r.toAgent, r.agentDone)
}

// ClientDone is closed when the client's input ends.
func (r *Relay) ClientDone() <-chan struct{} { return r.clientDone }

// AgentDone is closed when the agent's output ends.
func (r *Relay) AgentDone() <-chan struct{} { return r.agentDone }

// loop reads one side and writes to the other. sent tracks the requests this
// direction forwards; answered the ones the other direction forwarded, whose
// responses arrive here.
func (r *Relay) loop(in *lineReader, from, to *Peer, hooks map[string]*hookSet, sent, answered *pending, done chan struct{}) {
	defer close(done)
	var msg Message // reused: a Message is only valid during the interceptor call
	var err error
	for {
		// Flush when reading on would wait for (or read into the buffer
		// of forwarded lines) more input: a burst shares one write, and
		// nothing waits behind a read.
		if !in.lineComplete() {
			if ferr := to.w.flush(); ferr != nil {
				r.logger.Debug("write failed", "to", to.name, "err", ferr)
			}
			if from == r.Agent {
				for _, fn := range r.beforeAgentRead {
					fn()
				}
			}
		}
		var line []byte
		if line, err = in.next(); err != nil {
			var long *lineTooLong
			if errors.As(err, &long) {
				r.refuse(long, from, to, answered)
				continue
			}
			break
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		r.handle(line, from, to, hooks, sent, answered, &msg, nil)
	}
	if !errors.Is(err, io.EOF) {
		r.logger.Warn("read failed", "from", from.name, "err", err)
	}
	if from == r.Client {
		// The agent's exit is failed by FailPending, with its status.
		r.clientLeft()
	}
	from.disconnect(errors.New(from.name + " closed its output"))
}

// pass forwards a line that was read as raw: from the reader's buffer,
// without a copy, while it is raw itself and followed there by its newline.
func (r *Relay) pass(to *Peer, line, raw []byte) {
	var err error
	if n := len(line); n > 0 && n == len(raw) && &line[0] == &raw[0] && cap(line) > n && line[:n+1][n] == '\n' {
		err = to.w.forwardLine(line)
	} else {
		err = to.send(line, false)
	}
	if err != nil {
		r.logger.Debug("write failed", "to", to.name, "err", err)
	}
}

func (r *Relay) forward(to *Peer, line []byte, flush bool) {
	if err := to.send(line, flush); err != nil {
		r.logger.Debug("write failed", "to", to.name, "err", err)
	}
}

// FailPending answers every client request still waiting for the agent with
// e, and every later one too: the agent will not answer them.
func (r *Relay) FailPending(e *Error) {
	r.mu.Lock()
	waiting := r.toAgent.fail(e)
	r.mu.Unlock()
	for _, f := range waiting {
		r.logger.Debug("failing a pending request", "method", f.method)
		r.answerInstead(r.Client, f, e)
	}
	r.Agent.disconnect(errors.New(e.Message))
}

// Flush writes out anything buffered, recording included.
func (r *Relay) Flush() {
	r.Client.w.flush()
	r.Agent.w.flush()
	r.rec.flush()
}
