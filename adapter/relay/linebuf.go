package relay

import (
	"bufio"
	"bytes"
	"io"
)

// lineBuf is a bufio.Reader cut down to what lineReader needs, with one
// addition: it remembers where the next newline is once found, so asking
// whether a whole line is buffered (hasLine) and then reading it
// (readSlice) look at its bytes once.
type lineBuf struct {
	rd      io.Reader
	buf     []byte
	r, w    int   // buf[r:w] is buffered
	nl      int   // index of the next newline in buf[r:w], or -1: not found yet
	scanned int   // when nl is -1: buf[r:scanned] holds no newline
	err     error // from rd, returned once the buffer is drained
}

func newLineBuf(rd io.Reader, size int) *lineBuf {
	return &lineBuf{rd: rd, buf: make([]byte, size), nl: -1}
}

// findNL returns the index of the next buffered newline, or -1.
func (b *lineBuf) findNL() int {
	if b.nl < 0 {
		if i := bytes.IndexByte(b.buf[b.scanned:b.w], '\n'); i >= 0 {
			b.nl = b.scanned + i
		} else {
			b.scanned = b.w
		}
	}
	return b.nl
}

// hasLine reports whether a whole line is buffered: reading it will not
// read from rd.
func (b *lineBuf) hasLine() bool { return b.findNL() >= 0 }

// readSlice is bufio.Reader.ReadSlice('\n'): the slice, valid until the
// next call, ends with the newline, or is the whole buffer with
// bufio.ErrBufferFull, or what was left before an error.
func (b *lineBuf) readSlice() ([]byte, error) {
	for {
		if nl := b.findNL(); nl >= 0 {
			line := b.buf[b.r : nl+1]
			b.consume(nl + 1)
			return line, nil
		}
		if b.err != nil {
			line, err := b.buf[b.r:b.w], b.err
			b.consume(b.w)
			b.err = nil
			return line, err
		}
		if b.w-b.r == len(b.buf) {
			line := b.buf[b.r:b.w]
			b.consume(b.w)
			return line, bufio.ErrBufferFull
		}
		b.fill()
	}
}

func (b *lineBuf) consume(to int) {
	b.r, b.scanned, b.nl = to, to, -1
}

// fill moves what is buffered to the front and reads more after it.
func (b *lineBuf) fill() {
	if b.r > 0 {
		copy(b.buf, b.buf[b.r:b.w])
		b.w -= b.r
		b.scanned -= b.r
		b.r = 0
	}
	for range 100 {
		n, err := b.rd.Read(b.buf[b.w:])
		b.w += n
		if err != nil {
			b.err = err
			return
		}
		if n > 0 {
			return
		}
	}
	b.err = io.ErrNoProgress
}
