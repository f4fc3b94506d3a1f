package mcpask

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxLine bounds one line the server reads, in bytes: a tool call is a few
// KiB, and a longer line is refused without being kept.
const MaxLine = 4 << 20

// MaxDepth bounds how deeply a message may nest arrays and objects; MCP's
// messages nest a dozen levels at most.
const MaxDepth = 128

// Stdio is the transport of `askbridge mcp`: newline-delimited JSON-RPC
// over stdin and stdout, like the SDK's IOTransport, except that a line
// that is not one JSON-RPC message — not JSON, a batch (MCP has none since
// 2025-06-18), nested deeper than MaxDepth, longer than MaxLine — is
// answered with a JSON-RPC error (-32700 or -32600, to the id when it can
// be read, else null) and the server goes on with the next line. The SDK's
// transport ends the session on such a line, and the agent loses its ask
// tool for good.
type Stdio struct {
	In     io.Reader
	Out    io.Writer
	Logger *slog.Logger // nil discards
}

var _ mcp.Transport = (*Stdio)(nil)

// Connect implements mcp.Transport. It is meant to be called once.
func (s *Stdio) Connect(context.Context) (mcp.Connection, error) {
	log := s.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	c := &stdioConn{out: s.Out, log: log, lines: make(chan inLine), closed: make(chan struct{})}
	go c.read(bufio.NewReaderSize(s.In, 64<<10))
	return c, nil
}

type stdioConn struct {
	out    io.Writer
	log    *slog.Logger
	lines  chan inLine
	closed chan struct{}
	once   sync.Once
	wmu    sync.Mutex
}

// inLine is one line read, or why reading ended.
type inLine struct {
	b    []byte
	size int // bytes on the line, when longer than MaxLine (b is nil)
	err  error
}

// read hands on every line until the input ends. A line longer than
// MaxLine is skipped to its newline, never held.
func (c *stdioConn) read(r *bufio.Reader) {
	var buf []byte
	size := 0
	for {
		chunk, err := r.ReadSlice('\n')
		size += len(chunk)
		if size <= MaxLine {
			buf = append(buf, chunk...)
		} else {
			buf = nil
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if size > 0 {
			l := inLine{b: buf, size: size}
			if size > MaxLine {
				l.b = nil
			}
			if !c.send(l) {
				return
			}
		}
		buf, size = nil, 0
		if err != nil {
			c.send(inLine{err: err})
			return
		}
	}
}

func (c *stdioConn) send(l inLine) bool {
	select {
	case c.lines <- l:
		return true
	case <-c.closed:
		return false
	}
}

// Read returns the next message, answering every malformed line on its way.
func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		var l inLine
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case l = <-c.lines:
		}
		if l.err != nil {
			return nil, l.err
		}
		msg, id, code, why := decodeLine(l)
		if msg != nil || code == 0 {
			if msg != nil {
				return msg, nil
			}
			continue // an empty line
		}
		c.log.Warn("askbridge mcp: answered a malformed line with an error and went on", "code", code, "err", why, "bytes", l.size)
		if err := c.writeError(id, code, why); err != nil {
			return nil, err
		}
	}
}

// decodeLine reads one message; when the line is none it returns the error
// code and text to answer, and the id to answer to (null when unknown).
// An empty line is no message and no error.
func decodeLine(l inLine) (msg jsonrpc.Message, id json.RawMessage, code int, why string) {
	if l.b == nil {
		return nil, nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("line of %d bytes refused: the limit is %d bytes", l.size, MaxLine)
	}
	b := bytes.TrimSpace(l.b)
	switch {
	case len(b) == 0:
		return nil, nil, 0, ""
	case tooDeep(b):
		return nil, nil, jsonrpc.CodeInvalidRequest, "nested deeper than " + strconv.Itoa(MaxDepth) + " levels"
	case !json.Valid(b):
		return nil, nil, jsonrpc.CodeParseError, "parse error: not JSON"
	case b[0] == '[':
		return nil, nil, jsonrpc.CodeInvalidRequest, "batches are not supported: send one message per line"
	case b[0] != '{':
		return nil, nil, jsonrpc.CodeInvalidRequest, "invalid request: not a JSON-RPC message object"
	}
	msg, err := jsonrpc.DecodeMessage(b)
	if err != nil {
		return nil, idOf(b), jsonrpc.CodeInvalidRequest, "invalid request: " + err.Error()
	}
	return msg, nil, 0, ""
}

// idOf is a message's id when it is one JSON-RPC allows (a string or a
// number), else nil.
func idOf(b []byte) json.RawMessage {
	var m struct{ ID json.RawMessage }
	if json.Unmarshal(b, &m) != nil || len(m.ID) == 0 {
		return nil
	}
	var v any
	json.Unmarshal(m.ID, &v)
	switch v.(type) {
	case string, float64:
		return m.ID
	}
	return nil
}

// tooDeep reports whether b nests arrays and objects deeper than MaxDepth,
// outside strings.
func tooDeep(b []byte) bool {
	depth, inString, escaped := 0, false, false
	for _, ch := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case ch == '\\':
				escaped = true
			case ch == '"':
				inString = false
			}
		case ch == '"':
			inString = true
		case ch == '[' || ch == '{':
			if depth++; depth > MaxDepth {
				return true
			}
		case ch == ']' || ch == '}':
			depth--
		}
	}
	return false
}

func (c *stdioConn) writeError(id json.RawMessage, code int, msg string) error {
	if id == nil {
		id = json.RawMessage("null")
	}
	line, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: int64(code), Message: "askbridge mcp: " + msg}})
	if err != nil {
		return err
	}
	return c.writeLine(line)
}

// Write implements mcp.Connection.
func (c *stdioConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	b, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encoding a message: %w", err)
	}
	return c.writeLine(b)
}

func (c *stdioConn) writeLine(b []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := c.out.Write(append(b, '\n'))
	return err
}

// Close implements mcp.Connection. The reading goroutine ends with the
// input; stdin cannot be unblocked portably.
func (c *stdioConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

// SessionID implements mcp.Connection: stdio has no session id.
func (c *stdioConn) SessionID() string { return "" }
