package adapter

import (
	"context"
	"encoding/json"
	"errors"

	acp "github.com/coder/acp-go-sdk"

	"github.com/askbridge/askbridge/adapter/relay"
)

// promptVerdict is what becomes of the client's session/prompt in session:
// held while askbridge's own prompt runs there (never two turns at once),
// else forwarded with the session's notes (NextPrompt) and late answers
// added before the user's own content, and its turn counted until the
// agent answers it.
func (b *Bridge) promptVerdict(m *relay.Message, session string) relay.Verdict {
	b.late.mu.Lock()
	b.late.init()
	if b.late.own[session] {
		held := m.Clone()
		b.late.held[session] = append(b.late.held[session], func() { b.forwardHeld(held, session) })
		b.late.mu.Unlock()
		b.logger.Info("the prompt waits for askbridge's own prompt of a late answer to end", "session", session)
		return relay.Verdict{Take: true}
	}
	notes := b.late.notes[session]
	delete(b.late.notes, session)
	answers := b.late.take(session)
	b.late.turns[session]++
	b.late.mu.Unlock()
	notes, answers = b.withStored(session, notes, answers)
	v := relay.Pass
	if texts := promptTexts(notes, answers); len(texts) > 0 {
		v = relay.RewriteParams(func(params json.RawMessage) (json.RawMessage, error) { return prependTexts(params, texts) })(m)
		switch {
		case v.Replace == nil:
			b.logger.Warn("could not add askbridge's notes or late answers to the prompt; they wait for the next one", "session", session)
			b.requeue(session, notes, answers)
		case len(answers) > 0:
			b.tellClient(session, "askbridge added to your prompt: "+texts[len(texts)-1])
		default:
			b.logger.Info("askbridge's notes went with the prompt", "session", session, "notes", len(notes))
		}
	}
	v.OnResponse = func(json.RawMessage) json.RawMessage {
		b.turnEnded(session)
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
func (b *Bridge) requeue(session string, notes []late, answers []late) {
	b.late.mu.Lock()
	defer b.late.mu.Unlock()
	b.late.notes[session] = append(notes, b.late.notes[session]...)
	b.late.queued[session] = append(answers, b.late.queued[session]...)
}

// turnEnded counts a turn of session as over; an idle session with late
// answers gets them as a prompt of its own (LatePrompt).
func (b *Bridge) turnEnded(session string) {
	b.late.mu.Lock()
	if b.late.turns[session]--; b.late.turns[session] <= 0 {
		delete(b.late.turns, session)
	}
	send := b.opts.LateAnswers == LatePrompt && b.late.turns[session] == 0 && !b.late.own[session] && len(b.late.queued[session]) > 0
	b.late.mu.Unlock()
	if send {
		// After the turn's response has gone out: this runs before it.
		go b.promptLate(session)
	}
}

// promptLate sends session's late answers to the agent as a prompt of
// askbridge's own, then the prompts the client sent meanwhile, in order.
func (b *Bridge) promptLate(session string) {
	b.late.mu.Lock()
	if b.late.own[session] || b.late.turns[session] > 0 {
		b.late.mu.Unlock()
		return
	}
	answers := b.late.take(session)
	if len(answers) == 0 {
		b.late.mu.Unlock()
		return
	}
	b.late.own[session] = true
	b.late.mu.Unlock()
	if answers = b.claim(session, answers); len(answers) == 0 {
		b.ownEnded(session) // another askbridge serving the session handed them on
		return
	}
	text := lateText(answers)
	b.tellClient(session, "askbridge sent the agent a late answer as a prompt: "+text)
	go func() {
		params := map[string]any{"sessionId": session, "prompt": []acp.ContentBlock{acp.TextBlock(text)}}
		_, err := b.relay.Agent.Call(context.Background(), acp.AgentMethodSessionPrompt, params)
		if err != nil {
			b.logger.Warn("the agent refused askbridge's prompt of a late answer", "session", session, "err", err)
		}
		b.ownEnded(session)
	}()
}

// ownEnded ends askbridge's own prompt in session and forwards the
// client's prompts held meanwhile.
func (b *Bridge) ownEnded(session string) {
	b.late.mu.Lock()
	delete(b.late.own, session)
	held := b.late.held[session]
	delete(b.late.held, session)
	b.late.mu.Unlock()
	for _, f := range held {
		f()
	}
}

// forwardHeld sends the agent a client prompt held while askbridge's own
// ran, and the agent's answer back to the client under the client's id.
func (b *Bridge) forwardHeld(m *relay.Message, session string) {
	v := b.promptVerdict(m, session)
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
		res, err := b.relay.Agent.Call(context.Background(), acp.AgentMethodSessionPrompt, env.Params)
		v.OnResponse(nil)
		var rpcErr *relay.Error
		switch {
		case err == nil:
			b.relay.Client.Reply(m.ID, res)
		case errors.As(err, &rpcErr):
			b.relay.Client.ReplyError(m.ID, rpcErr)
		default:
			b.relay.Client.ReplyError(m.ID, relay.Internal("askbridge: "+err.Error(), nil))
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
