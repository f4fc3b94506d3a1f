package adapter

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	acp "github.com/coder/acp-go-sdk"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/permission"
)

// Notes for the next prompt. Some things the model should read arrive
// when no tool call of its is open to carry them: ACP's permission
// response has no field for a denial's reason, so a reason typed with
// "Deny…" reaches the model as a text block askbridge adds first to the
// user's next session/prompt in that session (the convention Zed's own
// agent uses: a message typed while an approval waits is the user's next
// message), and the client is told at once, in the session, what will be
// added. Anything else that must reach the model later can Add to it.

// nextPrompt holds each session's notes until its next prompt.
type nextPrompt struct {
	mu    sync.Mutex
	notes map[string][]string // session -> texts, oldest first
}

// Add queues text for session's next prompt.
func (n *nextPrompt) Add(session, text string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.notes == nil {
		n.notes = map[string][]string{}
	}
	n.notes[session] = append(n.notes[session], text)
}

// drain removes and returns session's notes.
func (n *nextPrompt) drain(session string) []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := n.notes[session]
	delete(n.notes, session)
	return out
}

// NextPrompt queues text for the model, with the user's next prompt in
// session.
func (b *Bridge) NextPrompt(session, text string) { b.notes.Add(session, text) }

// onPromptNotes is the session/prompt hook that drains the notes: they go
// first in the prompt, one text block each. A prompt that cannot carry them
// (not the shape expected) leaves them for the next.
func (b *Bridge) onPromptNotes(m *relay.Message) relay.Verdict {
	session, ok := relay.StringField(m.Raw, "params", "sessionId")
	if !ok || session == "" {
		return relay.Pass
	}
	texts := b.notes.drain(session)
	if len(texts) == 0 {
		return relay.Pass
	}
	v := relay.RewriteParams(func(params json.RawMessage) (json.RawMessage, error) { return withNotes(params, texts) })(m)
	if v.Replace == nil {
		b.logger.Warn("could not add askbridge's notes to the prompt; they wait for the next one", "session", session)
		for _, t := range texts {
			b.notes.Add(session, t)
		}
		return relay.Pass
	}
	b.logger.Info("askbridge's notes went with the prompt", "session", session, "notes", len(texts))
	return v
}

// withNotes puts one text block per note first in a session/prompt's
// params.
func withNotes(params json.RawMessage, texts []string) (json.RawMessage, error) {
	var p map[string]json.RawMessage
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, err
	}
	var blocks []json.RawMessage
	if err := json.Unmarshal(p["prompt"], &blocks); err != nil {
		return nil, err
	}
	var out []json.RawMessage
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

// forwardReason makes an approval's denial with a reason reach the model:
// the agent gets its reject option as always (c.Reply), and the reason
// waits for the next prompt, the client told.
func (b *Bridge) forwardReason(c *dialect.Claim) {
	reply := c.Reply
	if reply == nil || c.Approval == nil {
		return
	}
	a, session := c.Approval, c.SessionID
	c.Reply = func(ctx context.Context, o dialect.Outcome) (any, error) {
		if o.Status == dialect.Answered && o.Result.DenyReason != "" {
			b.denied(session, a, o.Result)
		}
		return reply(ctx, o)
	}
}

// denied queues a denial's reason for session's next prompt.
func (b *Bridge) denied(session string, a *permission.Approval, r permission.Result) {
	var tc struct {
		Title string `json:"title"`
	}
	json.Unmarshal(a.ToolCall, &tc)
	what := strings.TrimSpace(tc.Title)
	if what == "" {
		what = "a tool call"
	}
	b.NextPrompt(session, DenialNote(what, r.DenyReason))
	b.relay.Client.Notify(acp.ClientMethodSessionUpdate, acp.SessionNotification{
		SessionId: acp.SessionId(session),
		Update: acp.UpdateAgentMessageText(fmt.Sprintf("askbridge: you denied %q, saying: %q. The agent got its reject option; your reason goes to it with your next prompt.\n\n",
			what, r.DenyReason)),
	})
}

// DenialNote is what the model reads of a denial with a reason.
func DenialNote(what, reason string) string {
	return fmt.Sprintf("[askbridge] The user denied your request to run %q, and said why: %q. Take that into account.", what, reason)
}
