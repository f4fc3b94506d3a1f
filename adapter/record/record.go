package record

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/permission"
)

// Desk is the direction of the answer desk's resolutions in a recording.
const Desk = "desk"

// Recording is what askbridge adds to a relay's recording (--record): with
// Desk, what the answer desk resolved, as
// {"dir":"desk","t":…,"msg":<DeskResolution>}, which a replay needs since
// neither side said it; and no secret answer anywhere (secret.go).
// Its state is read and changed only with the recording held: in the
// relay's hooks, or through relay.Recording.
type Recording struct {
	relay *relay.Relay
	// desk, when set, holds the board's events not yet looked at; answered
	// counts the answers each set had at its last event, so a follow-up
	// step's own answers can be told from the earlier ones.
	desk     <-chan permission.Event
	answered map[string]int
	secrets  secrets
}

// Install installs askbridge's part of r's recording; nil when r records
// nothing. Call before the relay starts.
func Install(r *relay.Relay) *Recording {
	if !r.Records() {
		return nil
	}
	rec := &Recording{relay: r}
	r.HookRecording(relay.RecordHooks{
		Before: rec.drainDesk,
		Filter: rec.hide,
		Call: func(ctx context.Context, key string) {
			if permission.AskingSecret(ctx) {
				rec.secrets.concealResponse(key)
			}
		},
	})
	return rec
}

// Desk adds each resolution the answer desk makes on board to the
// recording: a step answered, a set rejected. Each goes in before any
// message it brings about: every line recorded first takes the board's
// events still waiting. stop ends it; call it before the relay's last
// Flush.
func (rec *Recording) Desk(board *permission.Board) (stop func()) {
	if rec == nil || board == nil {
		return func() {}
	}
	ctx, cancel := context.WithCancel(context.Background())
	// Two subscriptions: events waits, read only with the recording held,
	// so no event is in anyone's hands between the board and the file;
	// wake only says that one came, for a resolution no message follows.
	events := board.Subscribe(ctx)
	wake := board.Subscribe(ctx)
	rec.relay.Recording(func(relay.RecordWriter) {
		rec.desk, rec.answered = events, map[string]int{}
	})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range wake {
			rec.relay.Recording(rec.drainDesk)
		}
	}()
	return sync.OnceFunc(func() {
		rec.relay.Recording(func(w relay.RecordWriter) {
			rec.drainDesk(w)
			rec.desk = nil
		})
		cancel()
		<-done
	})
}

// drainDesk writes the desk's resolutions among the waiting events; the
// recording is held.
func (rec *Recording) drainDesk(w relay.RecordWriter) {
	for rec.desk != nil {
		select {
		case ev, ok := <-rec.desk:
			if !ok {
				rec.desk = nil
				return
			}
			if res, ok := rec.deskResolution(ev); ok {
				msg, _ := json.Marshal(res)
				w.Write(Desk, msg)
			}
		default:
			return
		}
	}
}

// DeskResolution is what the answer desk did to a question set, as a
// recording keeps it: enough to do it again in a replay.
type DeskResolution struct {
	Session string `json:"session"`
	Round   int    `json:"round"` // the set's round in the session, from 1; 0 for a set that is no round
	Step    int    `json:"step"`  // 0 for the set's questions, then each step of follow-ups
	// Questions are the texts of the questions the desk answered (or
	// showed, for a reject), in the order it listed them.
	Questions []string `json:"questions"`
	// Answers, one list per question, as the desk's reply route takes
	// them: the labels picked, or the text typed.
	Answers [][]string `json:"answers,omitempty"`
	Reject  bool       `json:"reject,omitempty"`
}

// deskResolution reads a board event: a follow-up step asked (the step
// before it was answered at the desk), a set answered or rejected at the
// desk. the recording is held.
func (rec *Recording) deskResolution(ev permission.Event) (DeskResolution, bool) {
	p := ev.Pending
	prev := rec.answered[p.ID]
	res := DeskResolution{Session: p.SessionID, Round: p.Round}
	switch {
	case ev.Type == permission.EventAsked && len(p.Answered) > prev:
		// Progress took a step whose picks bring follow-ups.
		rec.answered[p.ID] = len(p.Answered)
		res.Step = p.Step - 1
		for _, a := range p.Answered[prev:] {
			res.Questions = append(res.Questions, a.Question.Question)
			res.Answers = append(res.Answers, deskStrings(a.Answer))
		}
		return res, true
	case p.State == permission.StatePending:
		return res, false
	}
	delete(rec.answered, p.ID)
	if p.Result == nil || p.Result.Source != permission.SourceDesk && p.Result.Source != permission.SourceNotification {
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
