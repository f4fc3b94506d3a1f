package notify

import (
	"fmt"
	"strings"
	"time"

	"github.com/askbridge/askbridge/permission"
)

// Kinds of Event.
const (
	Asked     = "asked"
	Answered  = "answered"
	Cancelled = "cancelled"
	Timeout   = "timeout"
	// Expiring: a question with a deadline times out soon.
	Expiring = "expiring"
)

// Event is the JSON document a hook reads on stdin and a JSON webhook
// receives: one question set's change.
type Event struct {
	// Event is Asked, Expiring, Answered, Cancelled or Timeout; for an
	// approval (the agent's own permission request, askbridge --approvals)
	// "approval." and one of those: approval.asked, approval.answered...
	Event      string                `json:"event"`
	Kind       permission.Kind       `json:"kind"`
	ID         string                `json:"id"` // the set's id on the board and the desk
	Session    string                `json:"session"`
	Round      int                   `json:"round"`
	ToolCallID string                `json:"toolCallId,omitempty"`
	AskedAt    time.Time             `json:"askedAt"`
	Time       time.Time             `json:"time"` // when this event happened
	Questions  []permission.Question `json:"questions"`
	Answers    []Answer              `json:"answers,omitempty"` // answered, or timeout with --on-timeout recommended
	// Source says where the set was resolved from: client, desk, terminal
	// or timeout. Empty on Asked.
	Source permission.Source `json:"source,omitempty"`
	Reason string            `json:"reason,omitempty"` // why it was cancelled
	// DeskURL is the answer desk's page, when the desk is on: its address
	// only, no credential (see Options.DeskURL).
	DeskURL string `json:"deskUrl,omitempty"`
	// Deadline is when the set times out, with --question-timeout.
	Deadline *time.Time `json:"deadline,omitempty"`
	// Approval is what the agent asks to run, for an approval.
	Approval *permission.Approval `json:"approval,omitempty"`
}

// approvalPrefix starts the Event of an approval.
const approvalPrefix = "approval."

// base is the event without the approval prefix: Asked, Answered...
func (e Event) base() string { return strings.TrimPrefix(e.Event, approvalPrefix) }

// Answer is one question's answer in an Event.
type Answer struct {
	Question string   `json:"question"`
	Header   string   `json:"header"`
	Path     string   `json:"path"`   // "questions[0]", or a follow-up's path
	Answer   string   `json:"answer"` // the answer as the model reads it
	Labels   []string `json:"labels,omitempty"`
	Custom   string   `json:"custom,omitempty"` // the text typed for "Other"; permission.SecretText for a secret question
}

// fromBoard turns a board event into an Event.
func fromBoard(ev permission.Event, deskURL string, now time.Time) Event {
	p := ev.Pending
	e := Event{Event: Asked, ID: p.ID, Session: p.SessionID, Round: p.Round, ToolCallID: p.ToolCallID,
		AskedAt: p.Asked, Time: now, Questions: p.Questions, DeskURL: deskURL, Kind: p.Kind, Approval: p.Approval}
	if e.Kind == "" {
		e.Kind = permission.KindQuestion
	}
	if e.Questions == nil {
		e.Questions = []permission.Question{}
	}
	if p.Deadline != nil {
		e.Deadline = p.Deadline
	}
	switch p.State {
	case permission.StatePending:
		if ev.Type == permission.EventExpiring {
			e.Event = Expiring
		}
	case permission.StateAnswered:
		e.Event = Answered
	case permission.StateCancelled:
		e.Event = Cancelled
	case permission.StateTimeout:
		e.Event = Timeout
	}
	if r := p.Result; r != nil && e.Event != Asked {
		e.Source, e.Reason = r.Source, r.Reason
		if r.Source == permission.SourceTimeout {
			// --on-timeout recommended answers the set: still a timeout.
			e.Event = Timeout
		}
		for _, a := range r.Answers {
			// The board shows secrets Redacted already; an event is what
			// every notifier sends, so it makes sure.
			a = a.Redacted()
			e.Answers = append(e.Answers, Answer{Question: a.Question.Question, Header: a.Question.Header,
				Path: a.Path, Answer: a.Answer.Text(), Labels: a.Answer.Labels, Custom: a.Answer.Custom})
		}
	}
	if e.Kind == permission.KindApproval {
		e.Event = approvalPrefix + e.Event
	}
	return e
}

// Title is a one-line title for the event: the first question's header and
// text when it is asked, what became of the set afterwards.
func (e Event) Title() string {
	head, _ := e.head()
	if more := len(e.Questions) - 1; more > 0 {
		head += fmt.Sprintf(" (+%d more)", more)
	}
	switch e.base() {
	case Answered:
		return "Answered" + e.from() + ": " + head
	case Cancelled:
		return "Cancelled" + e.from() + ": " + head
	case Timeout:
		return "Timed out: " + head
	case Expiring:
		return "Answer soon: " + head
	}
	return head
}

// head is the first question's header and text, shortened for a title; cut
// says it was shortened.
func (e Event) head() (head string, cut bool) {
	if len(e.Questions) == 0 {
		return "", false
	}
	q := e.Questions[0]
	head = q.Question
	if q.Header != "" && q.Header != q.Question {
		head = q.Header + ": " + q.Question
	}
	short := shorten(head, titleRunes)
	return short, short != head
}

// titleRunes keeps a title to what notification popups show.
const titleRunes = 120

func (e Event) from() string {
	switch e.Source {
	case permission.SourceDesk:
		return " at the desk"
	case permission.SourceTerminal:
		return " in the terminal"
	case permission.SourceHub:
		return " at the hub"
	case permission.SourceNotification:
		return " from a notification"
	case permission.SourceInbox:
		return " in the terminal inbox"
	case permission.SourceClient:
		return " in the editor"
	}
	return ""
}

// Text is the event as a few plain lines: the questions and their options
// when asked, the answers or the reason after; then the desk link.
func (e Event) Text() string {
	var b strings.Builder
	switch e.base() {
	case Asked:
		for i, q := range e.Questions {
			if i > 0 {
				fmt.Fprintf(&b, "\n%s: %s\n", q.Header, q.Question)
			} else if _, cut := e.head(); cut {
				// The title has the first question; repeat it only when cut.
				b.WriteString(q.Question + "\n")
			}
			if q.Kind.Link {
				// In full: the reader sees where it leads before opening it.
				b.WriteString("Link (askbridge does not open it): " + q.Link + "\n")
			}
			for _, o := range q.Options {
				line := "  - " + o.Label
				if o.Description != "" {
					line += ": " + o.Description
				}
				b.WriteString(shorten(line, 160) + "\n")
			}
		}
	default:
		for _, a := range e.Answers {
			fmt.Fprintf(&b, "%s: %s\n", a.Header, shorten(a.Answer, 300))
		}
		if e.Reason != "" && len(e.Answers) == 0 {
			b.WriteString(e.Reason + "\n")
		}
	}
	switch {
	case e.DeskURL == "" || e.base() != Asked:
	case e.Kind == permission.KindApproval:
		b.WriteString("\nApprove or deny on the page: " + e.DeskURL + "\n")
	default:
		b.WriteString("\nAnswer at the desk: " + e.DeskURL + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// shorten cuts s to at most n runes, ending it with "…" when cut.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
