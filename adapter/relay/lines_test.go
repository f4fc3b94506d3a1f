package relay

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLineReaderReadsLinesOfEverySize(t *testing.T) {
	sizes := []int{0, 1, readBuf - 2, readBuf - 1, readBuf, readBuf + 1, 3 * readBuf, gatherBuf - 1, gatherBuf, gatherBuf + 1, 5*gatherBuf + 7, 40 << 20}
	var in bytes.Buffer
	var want []string
	for i, n := range sizes {
		line := strings.Repeat(string(rune('a'+i%26)), n)
		want = append(want, line)
		in.WriteString(line)
		if i%2 == 0 {
			in.WriteString("\r\n")
		} else {
			in.WriteString("\n")
		}
	}
	in.WriteString("last, without a newline")
	want = append(want, "last, without a newline")
	lr := newLineReader(&in)
	for i, w := range want {
		got, err := lr.next()
		require.NoError(t, err, "line %d", i)
		require.Equal(t, len(w), len(got), "line %d", i)
		require.True(t, string(got) == w, "line %d differs", i)
	}
	_, err := lr.next()
	assert.ErrorIs(t, err, io.EOF)
}

func TestLineReaderRefusesLinesOverMaxAndGoesOn(t *testing.T) {
	const limit = 100
	long := func(n int) string { return `{"id":1,"x":"` + strings.Repeat("x", n-len(`{"id":1,"x":""}`)) + `"}` }
	for _, n := range []int{limit + 1, readBuf - 1, readBuf + 5, 3 * gatherBuf} {
		for _, eol := range []string{"\n", "\r\n"} {
			lr := newLineReader(strings.NewReader(long(limit) + eol + long(n) + eol + "after" + eol + long(n)))
			lr.max = limit
			got, err := lr.next()
			require.NoError(t, err, "a line of exactly max bytes passes")
			assert.Len(t, got, limit)

			_, err = lr.next()
			var tl *lineTooLong
			require.True(t, errors.As(err, &tl), "a line of %d bytes: %v", n, err)
			assert.Equal(t, int64(n), tl.size)
			assert.Equal(t, n <= readBuf, tl.complete)
			assert.Equal(t, long(n)[:min(n, readBuf)], string(tl.prefix))

			got, err = lr.next()
			require.NoError(t, err)
			assert.Equal(t, "after", string(got))

			_, err = lr.next()
			require.True(t, errors.As(err, &tl), "the last line, without a newline: %v", err)
			assert.Equal(t, int64(n), tl.size)
			_, err = lr.next()
			assert.ErrorIs(t, err, io.EOF)
		}
	}
}

// A line over max is read through, not held: refusing a 256 MiB line
// allocates about the reader's buffer.
func TestLineReaderSkipsALongLineInLittleMemory(t *testing.T) {
	const size = 256 << 20
	pr, pw := io.Pipe()
	go func() {
		chunk := bytes.Repeat([]byte("x"), 1<<20)
		for range size >> 20 {
			pw.Write(chunk)
		}
		pw.Write([]byte("\nnext\n"))
		pw.Close()
	}()
	lr := newLineReader(pr)
	lr.max = 1 << 20
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := lr.next()
	runtime.ReadMemStats(&after)
	var tl *lineTooLong
	require.True(t, errors.As(err, &tl), "%v", err)
	assert.Equal(t, int64(size), tl.size)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(8<<20), "bytes allocated to refuse the line")
	got, err := lr.next()
	require.NoError(t, err)
	assert.Equal(t, "next", string(got))
}

// After a long line each way the relay holds no more memory than before,
// without help: the readers let their buffers go and the memory goes back
// to the system. The test itself keeps no copy of the lines.
func TestRelayDoesNotKeepTheMemoryOfALongLine(t *testing.T) {
	const size = 32 << 20
	cInR, cInW := io.Pipe()
	cOutR, cOutW := io.Pipe()
	aInR, aInW := io.Pipe()
	aOutR, aOutW := io.Pipe()
	r := New(Config{ClientIn: cInR, ClientOut: cOutW, AgentIn: aInR, AgentOut: aOutW})
	r.Start()
	t.Cleanup(func() {
		cInW.Close()
		aInW.Close()
		<-r.ClientDone()
		<-r.AgentDone()
		cOutW.Close()
		aOutW.Close()
	})
	retained := func() uint64 {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapSys - m.HeapReleased
	}
	debug.FreeOSMemory()
	base := retained()
	for _, p := range []struct {
		w io.Writer
		r io.Reader
	}{{cInW, aOutR}, {aInW, cOutR}} {
		go writeLongLine(p.w, size)
		n, err := lineLength(p.r)
		require.NoError(t, err)
		require.Equal(t, size+len(`{"jsonrpc":"2.0","method":"_big","params":{"text":""}}`), n)
	}
	deadline := time.Now().Add(5 * time.Second)
	for retained() > base+size/2 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	assert.Less(t, retained(), base+size/2, "heap memory held after a %d MiB line each way (%d MiB before)", size>>20, base>>20)
}

// writeLongLine writes a notification of size bytes of text, a piece at a
// time.
func writeLongLine(w io.Writer, size int) {
	piece := bytes.Repeat([]byte("x"), 1<<16)
	io.WriteString(w, `{"jsonrpc":"2.0","method":"_big","params":{"text":"`)
	for n := 0; n < size; n += len(piece) {
		w.Write(piece[:min(len(piece), size-n)])
	}
	io.WriteString(w, "\"}}\n")
}

// lineLength reads one line a piece at a time and returns its length.
func lineLength(r io.Reader) (int, error) {
	buf := make([]byte, 1<<16)
	n := 0
	for {
		k, err := r.Read(buf)
		if i := bytes.IndexByte(buf[:k], '\n'); i >= 0 {
			return n + i, nil
		}
		n += k
		if err != nil {
			return n, err
		}
	}
}
