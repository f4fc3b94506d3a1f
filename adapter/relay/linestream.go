package relay

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"

	"github.com/sourcegraph/jsonrpc2"
)

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
