package relay

import (
	"bufio"
	"context"
	"io"
	"strconv"
	"sync"
	"time"
)

// Directions of travel, as written in a recording.
const (
	ClientToAgent = "c2a"
	AgentToClient = "a2c"
)

// recorder appends every line both ways as JSONL:
// {"dir":"c2a"|"a2c","t":<ms since start>,"msg":<json>}. Lines are recorded
// as they arrive from the client (c2a) and the agent (a2c): what each side
// said, which is what a conformance fixture replays. Messages askbridge
// itself sends carry "askbridge":true, with dir the way they travel. The
// layer above adds entries of its own and filters what is written through
// RecordHooks.
type recorder struct {
	mu    sync.Mutex
	w     *bufio.Writer
	start time.Time
	buf   []byte
	hooks RecordHooks
}

// RecordHooks let the layer above the relay add to a recording and filter
// it. Each runs with the recording held, so entries keep their order.
type RecordHooks struct {
	// Before runs before each entry is written and before each flush;
	// what it writes goes in first.
	Before func(w RecordWriter)
	// Filter returns a message as it is to be written, its own
	// entries' too.
	Filter func(msg []byte) []byte
	// Call runs before a request of askbridge's own is sent, with its
	// id's key (IDKey): ctx is the caller's.
	Call func(ctx context.Context, key string)
}

// RecordWriter writes entries of the layer above into a recording.
type RecordWriter struct{ r *recorder }

// Write appends one entry: msg, a JSON value, travelling dir.
func (w RecordWriter) Write(dir string, msg []byte) { w.r.write(dir, msg, false) }

func newRecorder(w io.Writer) *recorder {
	return &recorder{w: bufio.NewWriterSize(w, 64<<10), start: time.Now()}
}

func (r *recorder) record(dir string, msg []byte, own bool) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.hooks.Before != nil {
		r.hooks.Before(RecordWriter{r})
	}
	r.write(dir, msg, own)
}

// write appends one entry, filtered; r.mu is held.
func (r *recorder) write(dir string, msg []byte, own bool) {
	if r.hooks.Filter != nil {
		msg = r.hooks.Filter(msg)
	}
	b := append(r.buf[:0], `{"dir":"`...)
	b = append(b, dir...)
	b = append(b, '"')
	if own {
		b = append(b, `,"askbridge":true`...)
	}
	b = append(b, `,"t":`...)
	b = strconv.AppendFloat(b, float64(time.Since(r.start).Microseconds())/1000, 'f', 3, 64)
	b = append(b, `,"msg":`...)
	r.buf = b
	r.w.Write(b)
	r.w.Write(msg) // not copied into buf: a long line's copy would be kept
	r.w.WriteString("}\n")
}

func (r *recorder) flush() {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.hooks.Before != nil {
		r.hooks.Before(RecordWriter{r})
	}
	r.w.Flush()
}

// call tells the hooks that askbridge's request key is about to be sent.
func (r *recorder) call(ctx context.Context, key string) {
	if r == nil || r.hooks.Call == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.hooks.Call(ctx, key)
}

// Records reports whether the relay keeps a recording.
func (r *Relay) Records() bool { return r.rec != nil }

// HookRecording installs the hooks of the layer above on the recording, if
// there is one; the next entry sees them.
func (r *Relay) HookRecording(h RecordHooks) {
	if r.rec != nil {
		r.rec.mu.Lock()
		r.rec.hooks = h
		r.rec.mu.Unlock()
	}
}

// Recording runs f with the recording held, if there is one, so that what
// the layer above changes of its hooks' state is seen by the next entry
// and not in the middle of one; what f writes goes in at once.
func (r *Relay) Recording(f func(w RecordWriter)) {
	if r.rec == nil {
		return
	}
	r.rec.mu.Lock()
	defer r.rec.mu.Unlock()
	f(RecordWriter{r.rec})
}
