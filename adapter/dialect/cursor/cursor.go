package cursor

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	acp "github.com/coder/acp-go-sdk"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/permission"
)

// Dialect is the dialect of Cursor's agent (`agent acp`). It asks with
// blocking extension requests of its own: cursor/ask_question,
// cursor/create_plan (cursorplan.go) and cursor/update_todos. A client that
// does not know them answers -32601, and Cursor stalls or tells the model
// the tool is unavailable. askbridge forwards each to the client first and
// serves it only on -32601 (dialect.ExtensionForm, dialect.Extension,
// dialect.Forward), so a client that implements Cursor's methods keeps its
// own UI; meanwhile a question or a plan is watched: on the board, where the desk or the deadline may
// answer it first (adapter/watch.go).
//
// The shapes follow Cursor's documentation (cursor.com/docs/cli/acp,
// "Cursor extension methods") and the clients that implement it; they
// were not verified with a live Cursor.
//
// Cursor's params carry no sessionId: a request belongs to the session
// whose session/update announced its toolCallId, else to the session that
// last got a prompt.
type Dialect struct {
	mu    sync.Mutex
	calls map[string]string       // toolCallId -> session, for tool calls Cursor announced
	order []string                // the keys of calls, oldest first, to bound it
	todos map[string][]cursorTodo // session -> its todo list as last shown
}

// Cursor's extension methods.
const (
	AskQuestion = "cursor/ask_question"
	CreatePlan  = "cursor/create_plan"
	UpdateTodos = "cursor/update_todos"
)

// cursorMaxCalls bounds the tool calls remembered for their session: a
// question comes right after its tool call, so old ones are not needed.
const cursorMaxCalls = 1024

// Name implements Dialect.
func (*Dialect) Name() string { return "cursor" }

// Hooks implements Dialect.
func (*Dialect) Hooks() []dialect.Hook {
	return []dialect.Hook{
		{From: dialect.FromAgent, Method: acp.ClientMethodSessionUpdate, Updates: []string{"tool_call"}},
		{From: dialect.FromAgent, Method: AskQuestion},
		{From: dialect.FromAgent, Method: CreatePlan},
		{From: dialect.FromAgent, Method: UpdateTodos},
	}
}

// Claim implements Dialect. A session/update is only read, for the
// session of its tool call; it always goes on to the client.
func (d *Dialect) Claim(h dialect.Host, m *relay.Message) *dialect.Claim {
	switch m.Method {
	case acp.ClientMethodSessionUpdate:
		d.noteToolCall(m)
		return nil
	case UpdateTodos:
		return d.todosClaim(h, m)
	}
	if m.ID == nil {
		return nil // not the documented blocking request: nothing to answer
	}
	if m.Method == CreatePlan {
		return d.planClaim(h, m)
	}
	return d.askClaim(h, m)
}

// cursorAsk are cursor/ask_question's params.
type cursorAsk struct {
	ToolCallID string           `json:"toolCallId"`
	Title      string           `json:"title,omitempty"`
	Questions  []cursorQuestion `json:"questions"`
}

type cursorQuestion struct {
	ID            string         `json:"id"`
	Prompt        string         `json:"prompt"`
	Options       []cursorOption `json:"options"`
	AllowMultiple bool           `json:"allowMultiple,omitempty"`
}

type cursorOption struct {
	ID    string `json:"id"`
	Label string `json:"label"`
}

type cursorAnswered struct {
	Outcome string         `json:"outcome"` // "answered"
	Answers []cursorAnswer `json:"answers"`
}

type cursorAnswer struct {
	QuestionID        string   `json:"questionId"`
	SelectedOptionIDs []string `json:"selectedOptionIds"`
}

// TimeoutReason is what Cursor's model reads when nobody answered:
// the words every dialect uses.
const TimeoutReason = permission.NoAnswerInTime

func (d *Dialect) askClaim(h dialect.Host, m *relay.Message) *dialect.Claim {
	var p cursorAsk
	parseErr := m.Params(&p)
	session, toolCall := d.scope(h, p.ToolCallID)
	return &dialect.Claim{
		SessionID:    session,
		ToolCallID:   toolCall,
		Mode:         dialect.ExtensionForm, // on the board while the client has it
		ReadResponse: p.read,
		Questions: func(context.Context) ([]permission.Question, error) {
			if parseErr != nil {
				return nil, relay.InvalidParams("askbridge: "+AskQuestion+" params: "+parseErr.Error(), nil)
			}
			qs, err := p.decode()
			if err == nil {
				err = cursorPaths(permission.ValidateBridged(qs, h.Limits()))
			}
			if err != nil {
				return nil, dialect.InvalidQuestions(err)
			}
			if session == "" {
				return nil, dialect.ErrNoSession()
			}
			return qs, nil
		},
		Reply: func(_ context.Context, o dialect.Outcome) (any, error) {
			if o.Status == dialect.Invalid {
				h.Logger().Warn("cursor: question rejected", "err", o.Err)
				return nil, dialect.InvalidQuestions(o.Err)
			}
			return p.reply(o), nil
		},
	}
}

// decode turns Cursor's questions into askbridge's, the labels as option
// names; reply maps them back to ids. Cursor's questions have no header: a
// lone question is headed by the request's title, and otherwise each by its
// prompt, so that titles and the summary tell them apart.
func (p cursorAsk) decode() ([]permission.Question, error) {
	if p.Questions == nil {
		return nil, errors.New("questions: required")
	}
	qs := make([]permission.Question, 0, len(p.Questions))
	ids := map[string]bool{}
	for i, cq := range p.Questions {
		path := "questions[" + strconv.Itoa(i) + "]"
		if strings.TrimSpace(cq.ID) == "" {
			return nil, fmt.Errorf("%s.id: required", path)
		}
		if ids[cq.ID] {
			return nil, fmt.Errorf("%s.id: duplicate question id %q", path, cq.ID)
		}
		ids[cq.ID] = true
		header := cmp.Or(strings.TrimSpace(cq.Prompt), "Question")
		if title := strings.TrimSpace(p.Title); title != "" && len(p.Questions) == 1 {
			header = title
		}
		q := permission.Question{Question: cq.Prompt, Header: header, Kind: permission.AnswerKind{Many: cq.AllowMultiple}}
		optIDs := map[string]bool{}
		for j, o := range cq.Options {
			if strings.TrimSpace(o.ID) == "" || optIDs[o.ID] {
				return nil, fmt.Errorf("%s.options[%d].id: want a unique, non-empty id, got %q", path, j, o.ID)
			}
			optIDs[o.ID] = true
			q.Options = append(q.Options, permission.Option{Label: o.Label})
		}
		qs = append(qs, q)
	}
	return qs, nil
}

// cursorPaths names violations by Cursor's fields: a question's text is
// its prompt.
func cursorPaths(err error) error {
	var ve *permission.ValidationError
	if !errors.As(err, &ve) {
		return err
	}
	for i, v := range ve.Violations {
		if base, ok := strings.CutSuffix(v.Path, ".question"); ok {
			ve.Violations[i].Path = base + ".prompt"
		}
	}
	return ve
}

// reply is the result for an outcome. Cursor's answer has no free text: a
// set where the user typed their own answer is skipped, the answer as the
// reason.
func (p cursorAsk) reply(o dialect.Outcome) cursorResult {
	switch o.Status {
	case dialect.Cancelled:
		return cursorOutcome("cancelled", "")
	case dialect.TimedOut:
		return cursorOutcome("skipped", TimeoutReason)
	case dialect.Refused:
		return cursorOutcome("skipped", o.Message)
	}
	answers := []cursorAnswer{}
	typed := false
	for _, a := range o.Result.Answers {
		if a.Index < 0 || a.Index >= len(p.Questions) {
			continue
		}
		cq := p.Questions[a.Index]
		ids := []string{}
		for _, opt := range cq.Options {
			if slices.Contains(a.Answer.Labels, opt.Label) {
				ids = append(ids, opt.ID)
			}
		}
		typed = typed || a.Answer.Other
		answers = append(answers, cursorAnswer{QuestionID: cq.ID, SelectedOptionIDs: ids})
	}
	if typed {
		return cursorOutcome("skipped", typedReason(o.Result))
	}
	return cursorResult{Outcome: cursorAnswered{Outcome: "answered", Answers: answers}}
}

// typedReason is the answer in words: for one question the answer itself
// (the typed text after any picks), else a line per question.
func typedReason(r permission.Result) string {
	if len(r.Answers) == 1 {
		return r.Answers[0].Answer.Text()
	}
	lines := []string{"The user answered in their own words:"}
	for _, a := range r.Answers {
		lines = append(lines, "- "+a.Question.Question+" → "+a.Answer.Text())
	}
	return strings.Join(lines, "\n")
}
