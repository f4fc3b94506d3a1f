package adapter

import (
	"bufio"
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
// itself sends carry "askbridge":true, with dir the way they travel.
type recorder struct {
	mu    sync.Mutex
	w     *bufio.Writer
	start time.Time
	buf   []byte
}

func newRecorder(w io.Writer) *recorder {
	return &recorder{w: bufio.NewWriterSize(w, 64<<10), start: time.Now()}
}

func (r *recorder) record(dir string, msg []byte, own bool) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
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
	r.w.Flush()
}
