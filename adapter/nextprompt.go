package adapter

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	acp "github.com/coder/acp-go-sdk"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/internal/notes"
	"github.com/askbridge/askbridge/permission"
)

// Notes for the next prompt. Some things the model should read arrive
// when no tool call of its is open to carry them: ACP's permission
// response has no field for a denial's reason, so a reason typed with
// "Deny…" reaches the model as a text block askbridge adds first to the
// user's next session/prompt in that session (the convention Zed's own
// agent uses: a message typed while an approval waits is the user's next
// message), and the client is told at once, in the session, what will be
// added. Anything else that must reach the model later can go there too
// (NextPrompt). Each is kept in the notes store too (nextpromptstore.go),
// so a new askbridge serving the session hands it on if this one is gone.

// NextPrompt queues text for the model, with the user's next prompt in
// session: the same queue as the session's late answers (lateBox), so one
// rewrite of the prompt carries both, notes first.
func (b *Bridge) NextPrompt(session, text string) {
	n := b.keep(session, notes.KindNote, text, true)
	b.late.mu.Lock()
	defer b.late.mu.Unlock()
	b.late.init()
	b.late.notes[session] = append(b.late.notes[session], n)
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
