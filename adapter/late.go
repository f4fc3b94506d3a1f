package adapter

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/askbridge/askbridge/adapter/asksocket"
	"github.com/askbridge/askbridge/internal/mcpask"
	"github.com/askbridge/askbridge/internal/notes"
	"github.com/askbridge/askbridge/permission"
)

// Late answers. An agent that asks through askbridge's MCP ask tool (Gemini
// CLI, Copilot CLI) waits on a tool call its MCP host ends after a while
// (Copilot 1.0.102 after about 180 s, Gemini 0.61.0 after 600 s), and the
// model reads the host's timeout as the tool's result. The question stays
// answerable where it is shown, its card saying the agent stopped waiting;
// an answer given then reaches the model with the user's next session/prompt
// in that session, as a text block askbridge adds before the user's own,
// or, with LatePrompt, as a prompt of its own as soon as the session is idle.

// LateAnswers says how an answer given after the agent stopped waiting
// reaches it.
type LateAnswers int

const (
	// LateNextPrompt, the zero value: with the user's next prompt.
	LateNextPrompt LateAnswers = iota
	// LatePrompt: as a prompt of its own, once no turn runs in the session.
	LatePrompt
)

var lateNames = []string{"next-prompt", "prompt"}

// String is the flag spelling.
func (l LateAnswers) String() string { return lateNames[l] }

// Set parses the flag spelling, so LateAnswers is a flag.Value.
func (l *LateAnswers) Set(s string) error {
	for i, n := range lateNames {
		if s == n {
			*l = LateAnswers(i)
			return nil
		}
	}
	return fmt.Errorf("must be one of %s", strings.Join(lateNames, ", "))
}

// What the card says once the agent stopped waiting.
const (
	NoteNextPrompt = notes.CardNextPrompt
	NotePrompt     = notes.CardPrompt
)

// late is a text kept for a session's next prompt: an answer given after
// the agent stopped waiting (its line of lateText), or a note
// (NextPrompt). id is its file in the notes store (nextpromptstore.go),
// "" when it is kept in memory only.
type late struct {
	text string
	id   string
}

// lateBox holds the late answers of each session until they are delivered,
// and what it needs to know to deliver them: the turns running.
type lateBox struct {
	mu     sync.Mutex
	queued map[string][]late // session -> answers not delivered yet
	turns  map[string]int    // session -> the client's prompts running
	own    map[string]bool   // session -> askbridge's own prompt running
	held   map[string][]func()
	notes  map[string][]late // session -> texts for the next prompt, oldest first (nextprompt.go)
	// waiting are the sets kept for a late answer, to end as askbridge stops.
	waiting map[string]struct{}
}

func (l *lateBox) init() {
	if l.queued == nil {
		l.queued, l.turns, l.own, l.held = map[string][]late{}, map[string]int{}, map[string]bool{}, map[string][]func(){}
		l.waiting, l.notes = map[string]struct{}{}, map[string][]late{}
	}
}

// take removes and returns session's late answers; l.mu is held.
func (l *lateBox) take(session string) []late {
	q := l.queued[session]
	delete(l.queued, session)
	return q
}

// keepForLater keeps a set answerable when ctx ended because the agent
// stopped waiting for it, and reports whether it did: the card says so,
// the set waits for its answer or its deadline, and an answer goes to the
// session's late answers.
func (b *Bridge) keepForLater(ctx context.Context, ticket *permission.Ticket, req permission.Request, expired <-chan struct{}) bool {
	var sw asksocket.StoppedWaiting
	if !errors.As(context.Cause(ctx), &sw) {
		b.logger.Debug("question set ended by its asker", "ticket", ticket.ID, "why", context.Cause(ctx))
		return false
	}
	note := NoteNextPrompt
	if b.opts.LateAnswers == LatePrompt {
		note = NotePrompt
	}
	b.logger.Info("the agent stopped waiting for a question; it stays answerable, and an answer reaches the agent later",
		"ticket", ticket.ID, "session", req.SessionID, "why", sw.Reason, "late-answers", b.opts.LateAnswers)
	b.board.Note(ticket.ID, note)
	b.late.mu.Lock()
	b.late.init()
	b.late.waiting[ticket.ID] = struct{}{}
	b.late.mu.Unlock()
	defer func() {
		b.late.mu.Lock()
		delete(b.late.waiting, ticket.ID)
		b.late.mu.Unlock()
	}()
	b.tellClient(req.SessionID, "askbridge: "+what(req)+": "+strings.ToLower(note[:1])+note[1:])
	select {
	case <-ticket.Done():
	case <-expired:
		b.onQuestionTimeout(ticket.ID, req)
	}
	<-ticket.Done()
	res := ticket.Result()
	if res.Cancelled || res.Source == permission.SourceTimeout {
		return true // nobody's answer: the agent has gone on already
	}
	p, _ := b.board.Get(ticket.ID)
	b.addLate(req.SessionID, b.keep(req.SessionID, notes.KindLate, lateLine(p.Asked, res), len(res.Secrets()) == 0))
	return true
}

// cancelLate ends the sets kept for a late answer: askbridge stops. Each
// is noted first as left to the hub (notes.CardLeft): the hub, told how
// it ended, keeps its card answerable and puts its answer in the notes
// store for the session's next prompt, which whichever askbridge serves
// the session then delivers.
func (b *Bridge) cancelLate(cause error) {
	b.late.mu.Lock()
	var ids []string
	for id := range b.late.waiting {
		ids = append(ids, id)
	}
	b.late.mu.Unlock()
	for _, id := range ids {
		b.board.Note(id, notes.CardLeft)
		b.board.Withdraw(id, cause.Error(), permission.BySelf(permission.SourceClient))
	}
}

// addLate queues a late answer and, with LatePrompt, sends it at once when
// the session is idle.
func (b *Bridge) addLate(session string, a late) {
	b.late.mu.Lock()
	b.late.init()
	b.late.queued[session] = append(b.late.queued[session], a)
	idle := b.late.turns[session] == 0 && !b.late.own[session]
	b.late.mu.Unlock()
	b.logger.Info("a late answer waits for the agent", "session", session, "late-answers", b.opts.LateAnswers)
	if b.opts.LateAnswers == LatePrompt && idle {
		b.promptLate(session)
	}
}

// lateText is the text block that hands the model its late answers.
func lateText(answers []late) string {
	var sb strings.Builder
	sb.WriteString("[askbridge] The user answered after your ask_user_question call had ended without their answer. ")
	sb.WriteString("Take these answers into account:")
	for _, a := range answers {
		sb.WriteString("\n" + a.text)
	}
	return sb.String()
}

// lateLine is one late answer as lateText lists it.
func lateLine(asked time.Time, r permission.Result) string {
	return notes.LateLine(asked, mcpask.AnswerText(r))
}

// tellClient shows the client, in session, what askbridge adds to the
// conversation: as agent text, the update every ACP client renders during
// a turn (a user_message_chunk is meant for replaying a loaded session, and
// several clients show none while a turn runs).
func (b *Bridge) tellClient(session, text string) {
	b.relay.Client.Notify(acp.ClientMethodSessionUpdate, acp.SessionNotification{
		SessionId: acp.SessionId(session),
		Update:    acp.UpdateAgentMessageText(text + "\n\n"),
	})
}
