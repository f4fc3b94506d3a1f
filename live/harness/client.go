//go:build unix

package harness

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
)

// Client is a scripted ACP client: one func per request an agent may send.
// A nil func answers as a client without the feature would.
type Client struct {
	// RequestPermission answers session/request_permission with the result
	// it returns. Nil: {"outcome":{"outcome":"cancelled"}}.
	RequestPermission func(params json.RawMessage) (any, error)
	// Elicit answers elicitation/create. Nil: method not found.
	Elicit func(params json.RawMessage) (any, error)
	// Other answers any other request. Nil: method not found.
	Other func(method string, params json.RawMessage) (any, error)
	// Notify sees every notification (session/update...), in order.
	Notify func(method string, params json.RawMessage)
}

// RPCError is a JSON-RPC error, sent or received.
type RPCError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *RPCError) Error() string { return fmt.Sprintf("json-rpc error %d: %s", e.Code, e.Message) }

// MethodNotFound is the answer of a client that lacks a method.
func MethodNotFound(method string) *RPCError {
	return &RPCError{Code: -32601, Message: "the test client does not support " + method}
}

type envelope struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *RPCError       `json:"error,omitempty"`
}

// conn is the client's end of the agent's stdio.
type conn struct {
	client Client
	rec    *recorder
	w      io.Writer

	wmu     sync.Mutex
	mu      sync.Mutex
	nextID  int
	pending map[string]chan envelope
	closed  error
	done    chan struct{}
}

func newConn(c Client, rec *recorder, w io.Writer) *conn {
	return &conn{client: c, rec: rec, w: w, pending: map[string]chan envelope{}, done: make(chan struct{})}
}

func (c *conn) write(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.rec.add(ToAgent, b)
	_, err = c.w.Write(append(b, '\n'))
	return err
}

// Call sends a request and waits for its response.
func (c *conn) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	c.mu.Lock()
	if c.closed != nil {
		c.mu.Unlock()
		return nil, c.closed
	}
	c.nextID++
	id := strconv.Itoa(c.nextID)
	ch := make(chan envelope, 1)
	c.pending[id] = ch
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
	}()
	if err := c.write(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id), "method": method, "params": params}); err != nil {
		return nil, fmt.Errorf("%s: writing to the agent: %v", method, err)
	}
	answer := func(env envelope) (json.RawMessage, error) {
		if env.Error != nil {
			return nil, fmt.Errorf("%s: %w", method, env.Error)
		}
		return env.Result, nil
	}
	select {
	case env := <-ch:
		return answer(env)
	case <-c.done:
		// The response may have come just before the end of the stream:
		// select picks at random among the ready cases.
		select {
		case env := <-ch:
			return answer(env)
		default:
		}
		return nil, fmt.Errorf("%s: %w", method, c.closed)
	case <-ctx.Done():
		return nil, fmt.Errorf("%s: no response: %w", method, ctx.Err())
	}
}

// Notify sends a notification.
func (c *conn) Notify(method string, params any) error {
	return c.write(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// read runs until the agent's stdout ends. Requests are answered on their
// own goroutines so a slow answer does not hold up the stream.
func (c *conn) read(r io.Reader) {
	br := bufio.NewReaderSize(r, 1<<20)
	var err error
	for {
		var line []byte
		line, err = br.ReadBytes('\n')
		if len(line) > 1 {
			c.handle(line[:len(line)-1])
		}
		if err != nil {
			break
		}
	}
	if errors.Is(err, io.EOF) {
		err = errors.New("the agent closed its stdout")
	}
	c.mu.Lock()
	c.closed = err
	c.mu.Unlock()
	close(c.done)
}

func (c *conn) handle(line []byte) {
	c.rec.add(FromAgent, line)
	var env envelope
	if err := json.Unmarshal(line, &env); err != nil {
		return // recorded; a test reads the recording
	}
	switch {
	case env.Method != "" && env.ID != nil:
		go c.answer(env)
	case env.Method != "":
		if c.client.Notify != nil {
			c.client.Notify(env.Method, env.Params)
		}
	default:
		c.mu.Lock()
		ch := c.pending[string(env.ID)]
		c.mu.Unlock()
		if ch != nil {
			ch <- env
		}
	}
}

func (c *conn) answer(req envelope) {
	var result any
	var err error
	switch {
	case req.Method == "session/request_permission" && c.client.RequestPermission == nil:
		result = map[string]any{"outcome": map[string]any{"outcome": "cancelled"}}
	case req.Method == "session/request_permission":
		result, err = c.client.RequestPermission(req.Params)
	case req.Method == "elicitation/create" && c.client.Elicit != nil:
		result, err = c.client.Elicit(req.Params)
	case c.client.Other != nil:
		result, err = c.client.Other(req.Method, req.Params)
	default:
		err = MethodNotFound(req.Method)
	}
	if err != nil {
		var rpcErr *RPCError
		if !errors.As(err, &rpcErr) {
			rpcErr = &RPCError{Code: -32603, Message: err.Error()}
		}
		c.write(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": rpcErr})
		return
	}
	c.write(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
}
