package adapter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// ErrPeerGone is returned for a call whose peer went away before answering.
var ErrPeerGone = errors.New("peer disconnected")

// Peer is one side of the relay, the client or the agent, as askbridge
// writes to it: forwarded lines, and askbridge's own requests, replies and
// notifications. Responses to askbridge's own requests are routed back to
// the caller by id; askbridge's ids are strings "askbridge-N", which keeps
// them apart from the ids the other side chose.
type Peer struct {
	name string // "client" or "agent", for logs and errors
	dir  string // direction of lines written to this peer
	w    *lineWriter
	rec  *recorder

	seq   atomic.Int64
	mu    sync.Mutex
	calls map[string]chan callResult
	gone  error // set once the peer has disconnected
}

type callResult struct {
	result json.RawMessage
	err    error
}

func newPeer(name, dir string, w *lineWriter, rec *recorder) *Peer {
	return &Peer{name: name, dir: dir, w: w, rec: rec, calls: map[string]chan callResult{}}
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
	return p.sendJSON(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  any             `json:"result"`
	}{"2.0", id, result})
}

// ReplyError answers the request with the given raw id with an error.
func (p *Peer) ReplyError(id json.RawMessage, e *Error) error {
	if id == nil {
		id = json.RawMessage("null")
	}
	return p.sendJSON(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *Error          `json:"error"`
	}{"2.0", id, e})
}

// Call sends a request of askbridge's own and waits for the answer. When ctx
// ends first the request is withdrawn with $/cancel_request and ctx's error
// returned; a JSON-RPC error answer is returned as *Error.
func (p *Peer) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	id := "askbridge-" + strconv.FormatInt(p.seq.Add(1), 10)
	ch := make(chan callResult, 1)
	p.mu.Lock()
	if p.gone != nil {
		p.mu.Unlock()
		return nil, fmt.Errorf("%s: %w", p.name, p.gone)
	}
	p.calls[id] = ch
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		delete(p.calls, id)
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
		return r.result, r.err
	case <-ctx.Done():
		p.Notify("$/cancel_request", map[string]string{"requestId": id})
		return nil, ctx.Err()
	}
}

// deliver routes a response to one of askbridge's own calls. It reports
// false when the id is not one of them, and the response must be forwarded.
func (p *Peer) deliver(id []byte, line []byte) bool {
	if len(id) < 12 || !strings.HasPrefix(string(id), `"askbridge-`) {
		return false
	}
	key := string(id[1 : len(id)-1])
	p.mu.Lock()
	ch, ok := p.calls[key]
	delete(p.calls, key)
	p.mu.Unlock()
	if !ok {
		return false
	}
	var msg struct {
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(line, &msg); err != nil {
		ch <- callResult{err: err}
		return true
	}
	if msg.Error != nil && string(msg.Error) != "null" {
		ch <- callResult{err: decodeError(msg.Error)}
		return true
	}
	ch <- callResult{result: msg.Result}
	return true
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
