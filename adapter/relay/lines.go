package relay

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"
)

// lineReader reads newline-delimited messages of any length, or up to max.
type lineReader struct {
	r   *lineBuf
	max int    // longer lines are refused with a *lineTooLong; 0: no limit
	buf []byte // holds a line longer than r's buffer, up to about gatherBuf
	big bool   // the last line was longer: its memory is to go back
}

const (
	readBuf = 64 << 10 // r's buffer: most lines fit, and are not copied
	// gatherBuf is the length up to which a longer line is gathered in buf,
	// whose memory is kept for the next one.
	gatherBuf = 1 << 20
	// maxChunk bounds the pieces a line longer than that is gathered in, so
	// the last one is mostly full.
	maxChunk = 16 << 20
)

// lineTooLong is what next returns for a line longer than max: its first
// bytes (up to readBuf), where the method and id may be found, and its
// length. The line itself is read to its end and let go.
type lineTooLong struct {
	prefix   []byte
	complete bool // prefix is the whole line
	size     int64
}

func (e *lineTooLong) Error() string {
	return fmt.Sprintf("a line of %d bytes is longer than the limit", e.size)
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: newLineBuf(r, readBuf)}
}

// next returns the next line without its newline. The slice is only valid
// until the following call. A final line without a newline is returned too.
// A line longer than max is returned as a *lineTooLong error; reading can
// go on after it.
func (l *lineReader) next() ([]byte, error) {
	if l.big {
		l.big = false
		releaseMemory()
	}
	line, err := l.r.readSlice()
	switch {
	case err == nil || err == io.EOF && len(line) > 0:
		line = trimEOL(line)
		if l.max > 0 && len(line) > l.max {
			return nil, tooLong(line, int64(len(line)))
		}
		return line, nil
	case errors.Is(err, bufio.ErrBufferFull):
		return l.long(line)
	}
	return nil, err
}

// long reads the rest of a line longer than r's buffer, whose first part is
// given. Up to gatherBuf it is gathered in buf, kept for the next such line.
// A longer one is gathered in chunks, then joined once into a slice of its
// exact length: its peak is about twice its size, where a growing slice
// would cost several times that, and its memory goes back to the system
// once it is done.
func (l *lineReader) long(part []byte) ([]byte, error) {
	acc := append(l.buf[:0], part...)
	var chunks [][]byte
	size := int64(len(part))
	var err error = bufio.ErrBufferFull
	for errors.Is(err, bufio.ErrBufferFull) {
		if part, err = l.r.readSlice(); err != nil && !errors.Is(err, bufio.ErrBufferFull) && err != io.EOF {
			return nil, err
		}
		size += int64(len(part))
		if l.max > 0 && size > int64(l.max)+2 { // +2: the newline may be "\r\n"
			prev := acc[len(acc)-1]
			if chunks != nil {
				acc = chunks[0]
			}
			return nil, l.skip(acc, chunks != nil, size, prev, part, err)
		}
		if len(acc)+len(part) > cap(acc) && len(acc)+len(part) > gatherBuf {
			chunks = append(chunks, acc)
			acc = make([]byte, 0, max(min(2*cap(acc), maxChunk), len(part)))
		}
		acc = append(acc, part...)
	}
	if chunks == nil {
		l.buf = acc // no longer than about gatherBuf: kept
		return l.checkMax(acc)
	}
	l.buf = chunks[0][:0]
	chunks = append(chunks, acc)
	line := make([]byte, 0, size)
	for i, c := range chunks {
		line = append(line, c...)
		chunks[i] = nil
	}
	l.big = true
	releaseMemory() // the chunks now; the line itself after its use
	return l.checkMax(line)
}

// checkMax trims a long line's newline and checks it against max, which a
// line ending in "\r\n" just over it may not meet.
func (l *lineReader) checkMax(line []byte) ([]byte, error) {
	line = trimEOL(line)
	if l.max > 0 && len(line) > l.max {
		return nil, tooLong(line, int64(len(line)))
	}
	return line, nil
}

// tooLong builds the error for a line of size bytes that begins with first.
func tooLong(first []byte, size int64) *lineTooLong {
	n := min(int64(len(first)), int64(readBuf), size)
	return &lineTooLong{prefix: bytes.Clone(first[:n]), complete: n == size, size: size}
}

// skip reads the rest of a line over max without keeping it, and returns
// it as a *lineTooLong. first holds the line's first bytes, size the bytes
// read so far, part and err what the last read returned, prev the byte
// before part (for a "\r\n" split between two reads).
func (l *lineReader) skip(first []byte, chunked bool, size int64, prev byte, part []byte, err error) error {
	l.big = chunked
	prefix := bytes.Clone(first[:min(len(first), readBuf)])
	l.buf = first[:0]
	for errors.Is(err, bufio.ErrBufferFull) {
		if len(part) > 0 {
			prev = part[len(part)-1]
		}
		part, err = l.r.readSlice()
		size += int64(len(part))
	}
	if err != nil && err != io.EOF {
		return err
	}
	if bytes.HasSuffix(part, []byte("\n")) {
		size--
		if len(part) > 1 && part[len(part)-2] == '\r' || len(part) == 1 && prev == '\r' {
			size--
		}
	}
	return tooLong(prefix, size)
}

// releaseMemory hands the memory of long lines back to the system, soon and
// once for a burst of them. Left to itself the runtime keeps it (a 100 MB
// line would hold hundreds of MB for the life of the process), since
// nothing else askbridge does allocates enough to collect it.
func releaseMemory() {
	if releasing.CompareAndSwap(false, true) {
		time.AfterFunc(100*time.Millisecond, func() {
			releasing.Store(false)
			debug.FreeOSMemory()
		})
	}
}

var releasing atomic.Bool

// lineComplete reports whether a whole further line is already buffered, so
// the caller can delay a flush: the next message is about to follow.
func (l *lineReader) lineComplete() bool { return l.r.hasLine() }

func trimEOL(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte("\n"))
	return bytes.TrimSuffix(b, []byte("\r"))
}

// lineWriter writes whole lines; it is safe for concurrent use. Lines the
// relay forwards unchanged are not copied: while they follow each other in
// the reader's buffer, they are kept as one span of it and written from
// there, in one call, when flushed (see forwardLine).
type lineWriter struct {
	mu   sync.Mutex
	out  io.Writer
	w    *bufio.Writer // lines of askbridge's own, and changed ones
	span []byte        // lines in a reader's buffer, after w's, newlines included
	err  error
}

func newLineWriter(w io.Writer) *lineWriter {
	return &lineWriter{out: w, w: bufio.NewWriterSize(w, 64<<10)}
}

// write appends one line; flush=false lets a burst share one write call.
func (l *lineWriter) write(line []byte, flush bool) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return l.err
	}
	l.keepSpan()
	l.w.Write(line)
	l.w.WriteByte('\n')
	if flush {
		l.err = l.w.Flush()
	}
	return l.err
}

// forwardLine appends a line read by a lineReader, which the reader's
// buffer holds followed by its newline, without copying it. The caller
// must flush before the reader reads into its buffer again.
func (l *lineWriter) forwardLine(line []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return l.err
	}
	n := len(line) + 1
	switch {
	case len(l.span) > 0 && cap(l.span)-len(l.span) >= n && &l.span[:len(l.span)+1][len(l.span)] == &line[:1][0]:
		l.span = l.span[:len(l.span)+n] // the next line in the buffer
	default:
		l.keepSpan()
		l.span = line[:n]
	}
	return nil
}

// keepSpan copies the span into w, before a line that is not in it.
func (l *lineWriter) keepSpan() {
	if len(l.span) > 0 {
		l.w.Write(l.span)
		l.span = nil
	}
}

func (l *lineWriter) flush() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return l.err
	}
	if len(l.span) > 0 && l.w.Buffered() == 0 {
		_, l.err = l.out.Write(l.span)
		l.span = nil
		return l.err
	}
	l.keepSpan()
	l.err = l.w.Flush()
	return l.err
}

// preview shortens a line for a log record.
func preview(b []byte) string {
	const max = 200
	if len(b) > max {
		return string(b[:max]) + "…"
	}
	return string(b)
}
