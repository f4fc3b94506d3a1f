package nextprompt

import (
	"context"
	"encoding/json"
	"errors"

	acp "github.com/coder/acp-go-sdk"

	"github.com/askbridge/askbridge/adapter/relay"
)

// Prompt is what becomes of the client's session/prompt in session: held
// while askbridge's own prompt runs there (never two turns at once), else
// forwarded with the session's notes (Note) and late answers
// added before the user's own content, and its turn counted until the
// agent answers it.
func (q *Queue) Prompt(m *relay.Message, session string) relay.Verdict {
	q.mu.Lock()
	if q.own[session] {
		held := m.Clone()
		q.held[session] = append(q.held[session], func() { q.forwardHeld(held, session) })
		q.mu.Unlock()
		q.cfg.Logger.Info("the prompt waits for askbridge's own prompt of a late answer to end", "session", session)
		return relay.Verdict{Take: true}
	}
	notes := q.notes[session]
	delete(q.notes, session)
	answers := q.take(session)
	q.turns[session]++
	q.mu.Unlock()
	notes, answers = q.withStored(session, notes, answers)
	v := relay.Pass
	if texts := promptTexts(notes, answers); len(texts) > 0 {
		v = relay.RewriteParams(func(params json.RawMessage) (json.RawMessage, error) { return prependTexts(params, texts) })(m)
		switch {
		case v.Replace == nil:
			q.cfg.Logger.Warn("could not add askbridge's notes or late answers to the prompt; they wait for the next one", "session", session)
			q.requeue(session, notes, answers)
		case len(answers) > 0:
			q.cfg.Tell(session, "askbridge added to your prompt: "+texts[len(texts)-1])
		default:
			q.cfg.Logger.Info("askbridge's notes went with the prompt", "session", session, "notes", len(notes))
		}
	}
	v.OnResponse = func(json.RawMessage) json.RawMessage {
		q.turnEnded(session)
		return nil
	}
	return v
}

// promptTexts are the text blocks a prompt gets first: the notes, then the
// late answers in one.
func promptTexts(notes []late, answers []late) []string {
	var texts []string
	for _, n := range notes {
		texts = append(texts, n.text)
	}
	if len(answers) > 0 {
		texts = append(texts, lateText(answers))
	}
	return texts
}

// requeue puts notes and answers back in front of session's queue, in
// memory only: they were taken from the store.
func (q *Queue) requeue(session string, notes []late, answers []late) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.notes[session] = append(notes, q.notes[session]...)
	q.queued[session] = append(answers, q.queued[session]...)
}

// turnEnded counts a turn of session as over; an idle session with late
// answers gets them as a prompt of its own (LatePrompt).
func (q *Queue) turnEnded(session string) {
	q.mu.Lock()
	if q.turns[session]--; q.turns[session] <= 0 {
		delete(q.turns, session)
	}
	send := q.cfg.Late == AsPrompt && q.turns[session] == 0 && !q.own[session] && len(q.queued[session]) > 0
	q.mu.Unlock()
	if send {
		// After the turn's response has gone out: this runs before it.
		go q.promptLate(session)
	}
}

// promptLate sends session's late answers to the agent as a prompt of
// askbridge's own, then the prompts the client sent meanwhile, in order.
func (q *Queue) promptLate(session string) {
	q.mu.Lock()
	if q.own[session] || q.turns[session] > 0 {
		q.mu.Unlock()
		return
	}
	answers := q.take(session)
	if len(answers) == 0 {
		q.mu.Unlock()
		return
	}
	q.own[session] = true
	q.mu.Unlock()
	if answers = q.claim(session, answers); len(answers) == 0 {
		q.ownEnded(session) // another askbridge serving the session handed them on
		return
	}
	text := lateText(answers)
	q.cfg.Tell(session, "askbridge sent the agent a late answer as a prompt: "+text)
	go func() {
		params := map[string]any{"sessionId": session, "prompt": []acp.ContentBlock{acp.TextBlock(text)}}
		_, err := q.relay.Agent.Call(context.Background(), acp.AgentMethodSessionPrompt, params)
		if err != nil {
			q.cfg.Logger.Warn("the agent refused askbridge's prompt of a late answer", "session", session, "err", err)
		}
		q.ownEnded(session)
	}()
}

// ownEnded ends askbridge's own prompt in session and forwards the
// client's prompts held meanwhile.
func (q *Queue) ownEnded(session string) {
	q.mu.Lock()
	delete(q.own, session)
	held := q.held[session]
	delete(q.held, session)
	q.mu.Unlock()
	for _, f := range held {
		f()
	}
}

// forwardHeld sends the agent a client prompt held while askbridge's own
// ran, and the agent's answer back to the client under the client's id.
func (q *Queue) forwardHeld(m *relay.Message, session string) {
	v := q.Prompt(m, session)
	if v.Take {
		return // askbridge's own prompt started again: held once more
	}
	raw := m.Raw
	if v.Replace != nil {
		raw = v.Replace
	}
	var env struct {
		Params json.RawMessage `json:"params"`
	}
	json.Unmarshal(raw, &env)
	go func() {
		res, err := q.relay.Agent.Call(context.Background(), acp.AgentMethodSessionPrompt, env.Params)
		v.OnResponse(nil)
		var rpcErr *relay.Error
		switch {
		case err == nil:
			q.relay.Client.Reply(m.ID, res)
		case errors.As(err, &rpcErr):
			q.relay.Client.ReplyError(m.ID, rpcErr)
		default:
			q.relay.Client.ReplyError(m.ID, relay.Internal("askbridge: "+err.Error(), nil))
		}
	}()
}

// prependTexts puts a text block per text first in a session/prompt's
// params, in order.
func prependTexts(params json.RawMessage, texts []string) (json.RawMessage, error) {
	var p map[string]json.RawMessage
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, err
	}
	var blocks []json.RawMessage
	if err := json.Unmarshal(p["prompt"], &blocks); err != nil {
		return nil, err
	}
	out := make([]json.RawMessage, 0, len(texts)+len(blocks))
	for _, t := range texts {
		block, err := json.Marshal(acp.TextBlock(t))
		if err != nil {
			return nil, err
		}
		out = append(out, block)
	}
	var err error
	p["prompt"], err = json.Marshal(append(out, blocks...))
	if err != nil {
		return nil, err
	}
	return json.Marshal(p)
}
