package permission

import (
	"fmt"
	"slices"
)

// A front end that shows a whole set at once (the answer desk) takes its
// follow-ups a step at a time: the answers to the set's questions, then
// the follow-ups their picks bring, and so on, until a step brings none.

// Asked is a question of a set as it is asked: where it sits in the set
// (Answered's Path and Index) and the question.
type Asked struct {
	Question Question `json:"question"`
	Path     string   `json:"path"`
	Index    int      `json:"index"`
}

// ProgressBy takes the answers to step of set id, one per question of its
// Asking, from by, for a front end that asks a step at a time (the desk).
// When their picks bring follow-ups the set stays pending and asks those
// next (a question.asked event), as the client's flow asks them after
// their question; otherwise the set is answered with every answer taken,
// in the order the client's flow would have asked them. done says which.
//
// by names its route, and the gate (Gate) weighs it: an answer that names
// none is refused, so a route that forgets to say what it checked fails
// closed. It is refused with a *ClaimedError while another device claims
// the set (decide.go).
func (b *Board) ProgressBy(id string, step int, answers []Answer, by By) (done bool, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	t, err := b.pending(id)
	if err == nil {
		err = by.check(t, answers)
	}
	switch {
	case err != nil:
		return false, err
	case step != t.p.Step:
		return false, ErrStale
	case len(answers) != len(t.p.Asking):
		return false, fmt.Errorf("%d answers to %d questions", len(answers), len(t.p.Asking))
	}
	answered := slices.Clone(t.answered)
	var next []Asked
	for i, a := range t.p.Asking {
		answered = append(answered, Answered{Question: a.Question, Answer: answers[i], Path: a.Path, Index: a.Index})
		for _, f := range followUps(queued{q: a.Question, path: a.Path, index: a.Index}, answers[i]) {
			next = append(next, Asked{Question: f.q, Path: f.path, Index: f.index})
		}
	}
	if len(next) > 0 {
		t.answered, t.p.Answered = answered, redactAll(answered)
		t.p.Asking, t.p.Step = next, t.p.Step+1
		b.publish(EventAsked, t.p)
		return false, nil
	}
	return true, b.end(t, Result{Answers: inAskedOrder(t.p.Questions, answered), Source: by.source(), Device: by.Name, DenyReason: by.Reason, Signed: by.Signed}, by)
}

// inAskedOrder orders answers as Ask gives them: each question followed by
// the follow-ups its picks brought.
func inAskedOrder(qs []Question, answered []Answered) []Answered {
	byPath := map[string]Answered{}
	for _, a := range answered {
		byPath[a.Path] = a
	}
	var out []Answered
	var walk func(queued)
	walk = func(item queued) {
		a, ok := byPath[item.path]
		if !ok {
			return
		}
		out = append(out, a)
		for _, f := range followUps(item, a.Answer) {
			walk(f)
		}
	}
	for i, q := range qs {
		walk(queued{q: q, path: indexPath(i), index: i})
	}
	return out
}
