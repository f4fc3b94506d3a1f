package relay

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
)

// ErrPeerGone is returned for a call whose peer went away before answering.
var ErrPeerGone = errors.New("peer disconnected")

// Peer is one side of the relay, the client or the agent, as askbridge
// writes to it: forwarded lines, and askbridge's own requests, replies and
// notifications. Responses to askbridge's own requests are routed back to
// the caller by id. askbridge's ids are strings "askbridge-<64 random
// bits>-N", the random part drawn per peer and process: the other side
// cannot guess them, so an id it chose never takes the place of one of
// askbridge's, and any response carrying such an id is askbridge's to take.
type Peer struct {
	name   string // "client" or "agent", for logs and errors
	dir    string // direction of lines written to this peer
	prefix string // "askbridge-<random hex>-": askbridge's ids on this peer
	w      *lineWriter
	rec    *recorder

	seq   atomic.Int64
	mu    sync.Mutex
	calls map[string]chan callResult // by IDKey
	ended endedCalls                 // recent calls no longer waiting
	gone  error                      // set once the peer has disconnected
	// quiet: the peer takes no $/cancel_request (KeepsRequestsOpen)
	quiet atomic.Bool

	own atomic.Pointer[Rewrite] // rewrites askbridge's own messages (SetOwn)

	// lastHooks is the hooks of the last method read from this peer that
	// had any (hooksOf): read and written by its reading loop alone.
	lastHooks *hookSet
}

type callResult struct {
	result json.RawMessage
	err    error
}

func newPeer(name, dir string, w *lineWriter, rec *recorder) *Peer {
	var b [8]byte
	rand.Read(b[:]) // never fails: see crypto/rand.Read
	return &Peer{name: name, dir: dir, prefix: "askbridge-" + hex.EncodeToString(b[:]) + "-", w: w, rec: rec,
		calls: map[string]chan callResult{}, ended: newEndedCalls(256)}
}

// send writes one line to the peer.
func (p *Peer) send(line []byte, flush bool) error {
	return p.w.write(line, flush)
}

// sendJSON writes a message of askbridge's own, and records it.
func (p *Peer) sendJSON(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	b = p.rewriteOwn(b)
	p.rec.record(p.dir, b, true)
	return p.send(b, true)
}

// Notify sends a notification.
func (p *Peer) Notify(method string, params any) error {
	return p.sendJSON(struct {
		JSONRPC string `json:"jsonrpc"`
		Method  string `json:"method"`
		Params  any    `json:"params,omitempty"`
	}{"2.0", method, params})
}

// Reply answers the request with the given raw id.
func (p *Peer) Reply(id json.RawMessage, result any) error {
	if result == nil {
		result = json.RawMessage("null")
	}
	return p.respond(id, "result", result)
}

// ReplyError answers the request with the given raw id with an error.
func (p *Peer) ReplyError(id json.RawMessage, e *Error) error {
	return p.respond(id, "error", e)
}

// respond sends a response with v as its member. The id goes out as the
// request spelt it: json.Marshal would re-encode it ("&" as "\u0026", say),
// and a peer that matches ids by their text would not know its answer.
func (p *Peer) respond(id json.RawMessage, member string, v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if id = bytes.TrimSpace(id); len(id) == 0 {
		id = json.RawMessage("null")
	}
	b := make([]byte, 0, len(`{"jsonrpc":"2.0","id":,"":}`)+len(id)+len(member)+len(body))
	b = append(append(b, `{"jsonrpc":"2.0","id":`...), id...)
	b = append(append(append(b, `,"`...), member...), `":`...)
	b = append(append(b, body...), '}')
	p.rec.record(p.dir, b, true)
	return p.send(b, true)
}

// Call sends a request of askbridge's own and waits for the answer. When ctx
// ends first the request is withdrawn with $/cancel_request and ctx's error
// returned; a JSON-RPC error answer is returned as *Error.
func (p *Peer) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	id := p.prefix + strconv.FormatInt(p.seq.Add(1), 10)
	key := `"` + id + `"` // its IDKey: id needs no escapes
	ch := make(chan callResult, 1)
	p.mu.Lock()
	if p.gone != nil {
		p.mu.Unlock()
		return nil, fmt.Errorf("%s: %w", p.name, p.gone)
	}
	p.calls[key] = ch
	p.mu.Unlock()
	p.rec.call(ctx, key) // before it is sent: the response may come at once
	why := "never sent"
	defer func() {
		p.mu.Lock()
		delete(p.calls, key)
		p.ended.add(key, method+", "+why)
		p.mu.Unlock()
	}()

	err := p.sendJSON(struct {
		JSONRPC string `json:"jsonrpc"`
		ID      string `json:"id"`
		Method  string `json:"method"`
		Params  any    `json:"params,omitempty"`
	}{"2.0", id, method, params})
	if err != nil {
		return nil, fmt.Errorf("sending %s to the %s: %w", method, p.name, err)
	}
	select {
	case r := <-ch:
		why = "answered already"
		if errors.Is(r.err, ErrPeerGone) {
			why = "failed: the " + p.name + " disconnected"
		}
		return r.result, r.err
	case <-ctx.Done():
		why = "withdrawn with $/cancel_request"
		if !p.Withdraw(id) {
			why = "given up: the " + p.name + " takes no $/cancel_request"
		}
		return nil, ctx.Err()
	}
}

// deliver hands a response, whose id has the key given, to the call of
// askbridge's own it answers. It reports false when the id is not one of
// askbridge's, and the response must be forwarded. A response to one of
// askbridge's ids that no call waits for (a second answer, or one after
// askbridge withdrew the request) is taken too, and stray says what became
// of that call: the other side never sent that id, so the response is
// dropped.
func (p *Peer) deliver(key string, line []byte) (ours bool, stray string) {
	if len(key) <= len(p.prefix)+1 || key[0] != '"' || key[1:len(p.prefix)+1] != p.prefix {
		return false, ""
	}
	p.mu.Lock()
	ch, ok := p.calls[key]
	delete(p.calls, key)
	if !ok {
		stray = p.ended.why(key)
	}
	p.mu.Unlock()
	if !ok {
		if stray == "" {
			stray = "not a request askbridge has open"
		}
		return true, stray
	}
	var msg struct {
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(line, &msg); err != nil {
		ch <- callResult{err: err}
		return true, ""
	}
	if msg.Error != nil && string(msg.Error) != "null" {
		ch <- callResult{err: decodeError(msg.Error)}
		return true, ""
	}
	ch <- callResult{result: msg.Result}
	return true, ""
}

// disconnect fails every call still waiting on the peer.
func (p *Peer) disconnect(cause error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.gone != nil {
		return
	}
	p.gone = fmt.Errorf("%w: %v", ErrPeerGone, cause)
	for id, ch := range p.calls {
		ch <- callResult{err: fmt.Errorf("%s: %w", p.name, p.gone)}
		delete(p.calls, id)
	}
}

// endedCalls remembers what became of askbridge's latest calls, a bounded
// number of them, so a stray response to one can be logged with its story.
type endedCalls struct {
	keys []string // a ring of the keys in why, oldest at next
	next int
	byID map[string]string
}

func newEndedCalls(n int) endedCalls {
	return endedCalls{keys: make([]string, n), byID: make(map[string]string, n)}
}

func (e *endedCalls) add(key, why string) {
	if old := e.keys[e.next]; old != "" {
		delete(e.byID, old)
	}
	e.keys[e.next] = key
	e.next = (e.next + 1) % len(e.keys)
	e.byID[key] = why
}

func (e *endedCalls) why(key string) string { return e.byID[key] }
