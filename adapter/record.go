package adapter

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/askbridge/askbridge/permission"
)

// Directions of travel, as written in a recording, and Desk, the answer
// desk's resolutions.
const (
	ClientToAgent = "c2a"
	AgentToClient = "a2c"
	Desk          = "desk"
)

// recorder appends every line both ways as JSONL:
// {"dir":"c2a"|"a2c","t":<ms since start>,"msg":<json>}. Lines are recorded
// as they arrive from the client (c2a) and the agent (a2c): what each side
// said, which is what a conformance fixture replays. Messages askbridge
// itself sends carry "askbridge":true, with dir the way they travel. With
// RecordDesk, what the answer desk resolved is there too, as
// {"dir":"desk","t":…,"msg":<DeskResolution>}: a replay needs it, since
// neither side said it.
type recorder struct {
	mu    sync.Mutex
	w     *bufio.Writer
	start time.Time
	buf   []byte
	// desk, when set, holds the board's events not yet looked at; answered
	// counts the answers each set had at its last event, so a follow-up
	// step's own answers can be told from the earlier ones.
	desk     <-chan permission.Event
	answered map[string]int
	secrets  secrets // what no line may hold (recordsecret.go)
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
	r.drainDesk()
	r.write(dir, msg, own)
}

// write appends one entry; r.mu is held.
func (r *recorder) write(dir string, msg []byte, own bool) {
	msg = r.conceal(msg)
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
	r.drainDesk()
	r.w.Flush()
}

// DeskResolution is what the answer desk did to a question set, as a
// recording keeps it: enough to do it again in a replay.
type DeskResolution struct {
	Session string `json:"session"`
	Round   int    `json:"round"` // the set's round in the session, from 1
	Step    int    `json:"step"`  // 0 for the set's questions, then each step of follow-ups
	// Questions are the texts of the questions the desk answered (or
	// showed, for a reject), in the order it listed them.
	Questions []string `json:"questions"`
	// Answers, one list per question, as the desk's reply route takes
	// them: the labels picked, or the text typed.
	Answers [][]string `json:"answers,omitempty"`
	Reject  bool       `json:"reject,omitempty"`
}

// RecordDesk adds to the recording, if there is one, each resolution the
// answer desk makes on board: a step answered, a set rejected. Each goes
// in before any message it brings about: every line recorded first takes
// the board's events still waiting. stop ends it; call it before the
// relay's last Flush.
func (r *Relay) RecordDesk(board *permission.Board) (stop func()) {
	if r.rec == nil || board == nil {
		return func() {}
	}
	ctx, cancel := context.WithCancel(context.Background())
	// Two subscriptions: events waits, read only under r.rec.mu, so no
	// event is in anyone's hands between the board and the file; wake
	// only says that one came, for a resolution no message follows.
	events := board.Subscribe(ctx)
	wake := board.Subscribe(ctx)
	r.rec.mu.Lock()
	r.rec.desk, r.rec.answered = events, map[string]int{}
	r.rec.mu.Unlock()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range wake {
			r.rec.mu.Lock()
			r.rec.drainDesk()
			r.rec.mu.Unlock()
		}
	}()
	return sync.OnceFunc(func() {
		r.rec.mu.Lock()
		r.rec.drainDesk()
		r.rec.desk = nil
		r.rec.mu.Unlock()
		cancel()
		<-done
	})
}

// drainDesk writes the desk's resolutions among the waiting events; r.mu
// is held.
func (r *recorder) drainDesk() {
	for r.desk != nil {
		select {
		case ev, ok := <-r.desk:
			if !ok {
				r.desk = nil
				return
			}
			if res, ok := r.deskResolution(ev); ok {
				msg, _ := json.Marshal(res)
				r.write(Desk, msg, false)
			}
		default:
			return
		}
	}
}

// deskResolution reads a board event: a follow-up step asked (the step
// before it was answered at the desk), a set answered or rejected at the
// desk. r.mu is held.
func (r *recorder) deskResolution(ev permission.Event) (DeskResolution, bool) {
	p := ev.Pending
	prev := r.answered[p.ID]
	res := DeskResolution{Session: p.SessionID, Round: p.Round}
	switch {
	case ev.Type == permission.EventAsked && len(p.Answered) > prev:
		// Progress took a step whose picks bring follow-ups.
		r.answered[p.ID] = len(p.Answered)
		res.Step = p.Step - 1
		for _, a := range p.Answered[prev:] {
			res.Questions = append(res.Questions, a.Question.Question)
			res.Answers = append(res.Answers, deskStrings(a.Answer))
		}
		return res, true
	case p.State == permission.StatePending:
		return res, false
	}
	delete(r.answered, p.ID)
	if p.Result == nil || p.Result.Source != permission.SourceDesk {
		return res, false
	}
	res.Step = p.Step
	res.Reject = p.Result.Cancelled
	for _, a := range p.Asking {
		res.Questions = append(res.Questions, a.Question.Question)
		if res.Reject {
			continue
		}
		for _, got := range p.Result.Answers {
			if got.Path == a.Path {
				res.Answers = append(res.Answers, deskStrings(got.Answer))
			}
		}
	}
	return res, true
}

// deskStrings is an answer as the desk takes it: the labels, and the typed
// text.
func deskStrings(a permission.Answer) []string {
	out := append([]string{}, a.Labels...)
	if a.Other {
		out = append(out, a.Custom)
	}
	return out
}
