//go:build unix

package harness

import (
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"time"
)

// Direction says which way a recorded line went.
type Direction string

const (
	ToAgent   Direction = "client->agent"
	FromAgent Direction = "agent->client"
)

// Line is one JSON-RPC line on the agent's stdio.
type Line struct {
	Ms  int64           `json:"ms"` // since the run started
	Dir Direction       `json:"dir"`
	Msg json.RawMessage `json:"msg"`
}

// recorder keeps every line and, given a path, appends each to a JSONL file
// as it goes, so a run that hangs still leaves its wire behind.
type recorder struct {
	start time.Time
	mu    sync.Mutex
	lines []Line
	file  *os.File
}

func newRecorder(path string) (*recorder, error) {
	r := &recorder{start: time.Now()}
	if path != "" {
		f, err := os.Create(path)
		if err != nil {
			return nil, fmt.Errorf("recording file: %v", err)
		}
		r.file = f
	}
	return r, nil
}

func (r *recorder) add(dir Direction, raw []byte) {
	l := Line{Ms: time.Since(r.start).Milliseconds(), Dir: dir}
	if json.Valid(raw) {
		l.Msg = append(json.RawMessage(nil), raw...)
	} else {
		// Keep what was not JSON, quoted, rather than lose it.
		l.Msg, _ = json.Marshal(string(raw))
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lines = append(r.lines, l)
	if r.file != nil {
		b, _ := json.Marshal(l)
		r.file.Write(append(b, '\n'))
	}
}

func (r *recorder) all() []Line {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Line(nil), r.lines...)
}

func (r *recorder) close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.file != nil {
		r.file.Close()
		r.file = nil
	}
}
