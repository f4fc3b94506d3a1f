package adapter

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"sync"

	"github.com/sourcegraph/jsonrpc2"
)

// lineReader reads newline-delimited messages of any length.
type lineReader struct {
	r   *bufio.Reader
	buf []byte // holds a line longer than r's buffer
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next line without its newline. The slice is only valid
// until the following call. A final line without a newline is returned too.
func (l *lineReader) next() ([]byte, error) {
	line, err := l.r.ReadSlice('\n')
	if err == nil {
		return trimEOL(line), nil
	}
	if errors.Is(err, bufio.ErrBufferFull) {
		l.buf = append(l.buf[:0], line...)
		for errors.Is(err, bufio.ErrBufferFull) {
			line, err = l.r.ReadSlice('\n')
			l.buf = append(l.buf, line...)
		}
		if err == nil || (err == io.EOF && len(l.buf) > 0) {
			return trimEOL(l.buf), nil
		}
		return nil, err
	}
	if err == io.EOF && len(line) > 0 {
		return trimEOL(line), nil
	}
	return nil, err
}

// lineComplete reports whether a whole further line is already buffered, so
// the caller can delay a flush: the next message is about to follow.
func (l *lineReader) lineComplete() bool {
	n := l.r.Buffered()
	if n == 0 {
		return false
	}
	b, _ := l.r.Peek(n)
	return bytes.IndexByte(b, '\n') >= 0
}

func trimEOL(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte("\n"))
	return bytes.TrimSuffix(b, []byte("\r"))
}

// lineWriter writes whole lines; it is safe for concurrent use.
type lineWriter struct {
	mu  sync.Mutex
	w   *bufio.Writer
	err error
}

func newLineWriter(w io.Writer) *lineWriter {
	return &lineWriter{w: bufio.NewWriterSize(w, 64<<10)}
}

// write appends one line; flush=false lets a burst share one write call.
func (l *lineWriter) write(line []byte, flush bool) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return l.err
	}
	l.w.Write(line)
	l.w.WriteByte('\n')
	if flush {
		l.err = l.w.Flush()
	}
	return l.err
}

func (l *lineWriter) flush() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err == nil {
		l.err = l.w.Flush()
	}
	return l.err
}

// LineStream is a jsonrpc2.ObjectStream over newline-delimited JSON with no
// line length limit. A line that is not JSON is logged and skipped, so one
// bad line never ends a connection. The demo agent, the terminal client and
// the tests use it with jsonrpc2.Conn; the relay itself reads raw lines.
type LineStream struct {
	r      *lineReader
	w      *lineWriter
	c      io.Closer
	logger *slog.Logger
}

var _ jsonrpc2.ObjectStream = (*LineStream)(nil)

// NewLineStream reads from r and writes to w; Close closes c when non-nil.
func NewLineStream(r io.Reader, w io.Writer, c io.Closer, logger *slog.Logger) *LineStream {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &LineStream{r: newLineReader(r), w: newLineWriter(w), c: c, logger: logger}
}

// WriteObject implements jsonrpc2.ObjectStream.
func (s *LineStream) WriteObject(obj any) error {
	b, err := json.Marshal(obj)
	if err != nil {
		return err
	}
	return s.w.write(b, true)
}

// ReadObject implements jsonrpc2.ObjectStream.
func (s *LineStream) ReadObject(v any) error {
	for {
		line, err := s.r.next()
		if err != nil {
			return err
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if _, err := scan(line); err != nil {
			s.logger.Warn("skipping a line that is not JSON", "err", err, "line", preview(line))
			continue
		}
		return json.Unmarshal(line, v)
	}
}

// Close implements jsonrpc2.ObjectStream.
func (s *LineStream) Close() error {
	if s.c != nil {
		return s.c.Close()
	}
	return nil
}

// preview shortens a line for a log record.
func preview(b []byte) string {
	const max = 200
	if len(b) > max {
		return string(b[:max]) + "…"
	}
	return string(b)
}
