package cursor

import (
	"context"
	"errors"
	"slices"
	"strings"

	acp "github.com/coder/acp-go-sdk"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/permission"
)

// cursorPlan are cursor/create_plan's params; fields it does not read
// (isProject, phases) are left out.
type cursorPlan struct {
	ToolCallID string       `json:"toolCallId"`
	Plan       string       `json:"plan"`
	Name       string       `json:"name,omitempty"`
	Overview   string       `json:"overview,omitempty"`
	Todos      []cursorTodo `json:"todos,omitempty"`
}

// cursorTodos are cursor/update_todos's params: the list, or with merge
// the entries to change (by id) or add.
type cursorTodos struct {
	ToolCallID string       `json:"toolCallId"`
	Todos      []cursorTodo `json:"todos"`
	Merge      bool         `json:"merge"`
}

type cursorTodo struct {
	ID      string `json:"id"`
	Content string `json:"content"`
	Status  string `json:"status"`
}

// cursorResult is the result of cursor/ask_question and cursor/create_plan:
// {"outcome":{"outcome":…}}, the inner object a cursorAnswered or a
// cursorVerdict.
type cursorResult struct {
	Outcome any `json:"outcome"`
}

// cursorVerdict is every other outcome: skipped, cancelled, accepted,
// rejected, the last with an optional reason.
type cursorVerdict struct {
	Outcome string `json:"outcome"`
	Reason  string `json:"reason,omitempty"`
}

func cursorOutcome(outcome, reason string) cursorResult {
	return cursorResult{Outcome: cursorVerdict{Outcome: outcome, Reason: reason}}
}

// The options a plan is shown with. Other's text rejects it, as the
// reason: what the user wants changed.
const (
	cursorAccept = "Accept"
	cursorReject = "Reject"
)

// PlanTimeoutReason is what Cursor's model reads when nobody
// reviewed its plan in time.
const PlanTimeoutReason = "The user did not review the plan in time, so it is not accepted. Do not start on it; ask again in the chat."

// planClaim shows a plan as one question, Accept or Reject, the plan in
// the tool call's content. It is never a form: a form would repeat the
// plan as its message and its field.
func (d *Dialect) planClaim(h dialect.Host, m *relay.Message) *dialect.Claim {
	var p cursorPlan
	parseErr := m.Params(&p)
	session, toolCall := d.scope(h, p.ToolCallID)
	return &dialect.Claim{
		SessionID:    session,
		ToolCallID:   toolCall,
		Mode:         dialect.Extension, // on the board while the client has it
		ReadResponse: p.read,
		Questions: func(context.Context) ([]permission.Question, error) {
			switch {
			case parseErr != nil:
				return nil, relay.InvalidParams("askbridge: "+CreatePlan+" params: "+parseErr.Error(), nil)
			case strings.TrimSpace(p.Plan) == "":
				return nil, relay.InvalidParams("askbridge: "+CreatePlan+": plan: required", nil)
			case session == "":
				return nil, dialect.ErrNoSession()
			}
			return []permission.Question{p.question()}, nil
		},
		Reply: func(_ context.Context, o dialect.Outcome) (any, error) {
			switch o.Status {
			case dialect.Invalid:
				h.Logger().Warn("cursor: plan rejected", "err", o.Err)
				return nil, dialect.InvalidQuestions(o.Err)
			case dialect.Cancelled:
				return cursorOutcome("cancelled", ""), nil
			case dialect.TimedOut:
				return cursorOutcome("rejected", PlanTimeoutReason), nil
			case dialect.Refused:
				return cursorOutcome("rejected", o.Message), nil
			}
			var a permission.Answer
			if len(o.Result.Answers) > 0 {
				a = o.Result.Answers[0].Answer
			}
			switch {
			case a.Other:
				return cursorOutcome("rejected", a.Text()), nil
			case len(a.Labels) == 1 && a.Labels[0] == cursorAccept:
				d.setTodos(session, p.Todos) // the list update_todos merges into
				return cursorOutcome("accepted", ""), nil
			}
			return cursorOutcome("rejected", ""), nil
		},
	}
}

// question is the plan as a question: its overview, the plan, its to-dos.
// It is not held to the question limits: a plan is as long as it is.
func (p cursorPlan) question() permission.Question {
	var b strings.Builder
	if o := strings.TrimSpace(p.Overview); o != "" {
		b.WriteString(o + "\n\n")
	}
	b.WriteString(strings.TrimSpace(p.Plan))
	if len(p.Todos) > 0 {
		b.WriteString("\n\nTo do:")
		for _, t := range p.Todos {
			b.WriteString("\n- " + t.Content)
		}
	}
	header := strings.TrimSpace(p.Name)
	if header == "" {
		header = "Plan"
	}
	return permission.Question{Question: b.String(), Header: header, Options: []permission.Option{
		{Label: cursorAccept, Description: "start on this plan"},
		{Label: cursorReject, Description: "do not start; say what to change with Other"},
	}}
}

// errShownAsPlan ends an update_todos claim: nothing is asked, the list
// was shown, and Cursor gets {}.
var errShownAsPlan = errors.New("cursor: the to-dos were shown as a plan")

// todosClaim shows the to-do list as an ACP plan update and answers {}.
// Some Cursor versions send it as a notification: that one also goes on to
// the client, which may show it itself.
func (d *Dialect) todosClaim(h dialect.Host, m *relay.Message) *dialect.Claim {
	var p cursorTodos
	parseErr := m.Params(&p)
	session, toolCall := d.scope(h, p.ToolCallID)
	return &dialect.Claim{
		SessionID:  session,
		ToolCallID: toolCall,
		Mode:       todosMode(m),
		Questions: func(context.Context) ([]permission.Question, error) {
			if parseErr != nil {
				return nil, relay.InvalidParams("askbridge: "+UpdateTodos+" params: "+parseErr.Error(), nil)
			}
			if session == "" {
				h.Logger().Warn("cursor: to-dos before any session; not shown")
				return nil, errShownAsPlan
			}
			list := d.mergeTodos(session, p.Todos, p.Merge)
			entries := make([]acp.PlanEntry, 0, len(list))
			for _, t := range list {
				entries = append(entries, planEntry(t))
			}
			h.Client().Notify(acp.ClientMethodSessionUpdate, acp.SessionNotification{SessionId: acp.SessionId(session), Update: acp.UpdatePlan(entries...)})
			return nil, errShownAsPlan
		},
		Reply: func(_ context.Context, o dialect.Outcome) (any, error) {
			if !errors.Is(o.Err, errShownAsPlan) {
				h.Logger().Warn("cursor: to-dos rejected", "err", o.Err)
				return nil, dialect.InvalidQuestions(o.Err)
			}
			return struct{}{}, nil
		},
	}
}

// todosMode is how an update_todos is served: a request goes to the client
// first, which may implement it; a notification goes on to the client
// while askbridge shows the list too.
func todosMode(m *relay.Message) dialect.Mode {
	if m.ID == nil {
		return dialect.Observe
	}
	return dialect.Forward
}

func (d *Dialect) setTodos(session string, todos []cursorTodo) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.todos == nil {
		d.todos = map[string][]cursorTodo{}
	}
	d.todos[session] = append([]cursorTodo(nil), todos...)
}

// mergeTodos applies an update to the session's list and returns the whole
// list, since an ACP plan update replaces the plan. With merge, an entry
// with a known id changes it (an empty content keeps the old one) and any
// other is added at the end; without, the update is the list.
func (d *Dialect) mergeTodos(session string, update []cursorTodo, merge bool) []cursorTodo {
	d.mu.Lock()
	defer d.mu.Unlock()
	var list []cursorTodo
	if merge {
		list = d.todos[session]
	}
	list = append([]cursorTodo(nil), list...)
	for _, t := range update {
		i := slices.IndexFunc(list, func(o cursorTodo) bool { return t.ID != "" && o.ID == t.ID })
		if i < 0 {
			list = append(list, t)
			continue
		}
		if t.Content == "" {
			t.Content = list[i].Content
		}
		list[i] = t
	}
	if d.todos == nil {
		d.todos = map[string][]cursorTodo{}
	}
	d.todos[session] = list
	return list
}

// planEntry is a to-do as an ACP plan entry. ACP has no cancelled status:
// a cancelled to-do is shown done, and says so.
func planEntry(t cursorTodo) acp.PlanEntry {
	e := acp.PlanEntry{Content: t.Content, Priority: acp.PlanEntryPriorityMedium, Status: acp.PlanEntryStatusPending}
	if e.Content == "" {
		e.Content = t.ID
	}
	switch strings.TrimPrefix(strings.ToLower(t.Status), "todo_status_") {
	case "in_progress", "inprogress":
		e.Status = acp.PlanEntryStatusInProgress
	case "completed", "done":
		e.Status = acp.PlanEntryStatusCompleted
	case "cancelled", "canceled":
		e.Status, e.Content = acp.PlanEntryStatusCompleted, e.Content+" (cancelled)"
	}
	return e
}
