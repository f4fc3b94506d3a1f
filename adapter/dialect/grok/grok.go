package grok

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/permission"
)

// Dialect is the dialect of Grok Build. Its ask_user_question tool sends a
// blocking extension request, _x.ai/ask_user_question {sessionId,
// toolCallId, questions:[{question, options:[{label, description}],
// multiSelect}], mode} (some versions wrap it as {method, params}), answered
// {outcome:"accepted", answers:{<question>:[labels]}, annotations:
// {<question>:{notes}}} or {outcome:"cancelled"} (also "skip_interview",
// "chat_about_this"); its plan approval is plan.go. Typed text goes as the label "Other" with the text in
// the question's annotation notes. A client that answers -32601 makes the
// tool fail ("The question tool could not reach the client"), so the
// request goes to the client first and askbridge serves it on -32601
// (dialect.ExtensionForm); meanwhile it is watched.
//
// The shapes follow the clients that implement Grok's method (they were
// not verified with a live Grok, which cannot be installed here).
type Dialect struct{}

// Grok's question method, with and without the leading underscore: the
// clients that implement it answer both.
const (
	AskUserQuestion     = "_x.ai/ask_user_question"
	askUserQuestionBare = "x.ai/ask_user_question"
)

// Name implements Dialect.
func (*Dialect) Name() string { return "grok" }

// Hooks implements Dialect.
func (*Dialect) Hooks() []dialect.Hook {
	return []dialect.Hook{
		{From: dialect.FromAgent, Method: AskUserQuestion},
		{From: dialect.FromAgent, Method: askUserQuestionBare},
		{From: dialect.FromAgent, Method: ExitPlanMode},
		{From: dialect.FromAgent, Method: exitPlanModeBare},
	}
}

// request is _x.ai/ask_user_question's params; Params holds them when
// they come wrapped.
type request struct {
	SessionID  string          `json:"sessionId"`
	ToolCallID string          `json:"toolCallId"`
	Questions  []question      `json:"questions"`
	Params     json.RawMessage `json:"params"`
}

type question struct {
	Question    string   `json:"question"`
	Options     []option `json:"options"`
	MultiSelect *bool    `json:"multiSelect"`
}

type option struct {
	Label       string `json:"label"`
	Description string `json:"description"`
}

// accepted and outcome are what Grok reads back.
type accepted struct {
	Outcome     string                `json:"outcome"` // "accepted"
	Answers     map[string][]string   `json:"answers"`
	Annotations map[string]annotation `json:"annotations,omitempty"`
}

type annotation struct {
	Notes string `json:"notes,omitempty"`
}

type outcome struct {
	Outcome string `json:"outcome"`
}

// other is the label Grok reads for an answer in the user's own words.
const other = "Other"

// Claim implements Dialect.
func (d *Dialect) Claim(h dialect.Host, m *relay.Message) *dialect.Claim {
	if m.ID == nil {
		return nil // no request: nothing to answer, the client's to show
	}
	if m.Method == ExitPlanMode || m.Method == exitPlanModeBare {
		return d.planClaim(h, m)
	}
	return d.askClaim(h, m)
}

func (d *Dialect) askClaim(h dialect.Host, m *relay.Message) *dialect.Claim {
	var p request
	parseErr := m.Params(&p)
	if parseErr == nil && len(p.Params) > 0 && p.Questions == nil {
		parseErr = json.Unmarshal(p.Params, &p)
	}
	session := h.ActiveSession(p.SessionID)
	var qs []permission.Question
	return &dialect.Claim{
		SessionID:    session,
		ToolCallID:   p.ToolCallID,
		Mode:         dialect.ExtensionForm, // on the board while the client has it
		ReadResponse: func(resp json.RawMessage) permission.Result { return read(qs, resp) },
		Questions: func(context.Context) ([]permission.Question, error) {
			if parseErr != nil {
				return nil, relay.InvalidParams("askbridge: "+AskUserQuestion+" params: "+parseErr.Error(), nil)
			}
			var err error
			if qs, err = p.decode(h.Limits()); err != nil {
				return nil, relay.InvalidParams("askbridge: "+AskUserQuestion+": "+err.Error(), nil)
			}
			if session == "" {
				return nil, dialect.ErrNoSession()
			}
			return qs, nil
		},
		Reply: func(_ context.Context, o dialect.Outcome) (any, error) {
			switch o.Status {
			case dialect.Invalid:
				// Grok reads an error as the tool failing, and goes on.
				h.Logger().Warn("grok: question rejected", "err", o.Err)
				return nil, o.Err
			case dialect.Cancelled:
				return outcome{Outcome: "cancelled"}, nil
			case dialect.Refused:
				return outcome{Outcome: "skip_interview"}, nil
			case dialect.TimedOut:
				return inWords(qs, permission.NoAnswerInTime), nil
			}
			return answers(o.Result), nil
		},
	}
}

// decode checks the questions and makes them askbridge's: Grok's have no
// header, so each is headed by its own text, as Cursor's are.
func (p request) decode(lim permission.Limits) ([]permission.Question, error) {
	if len(p.Questions) == 0 || lim.MaxQuestions > 0 && len(p.Questions) > lim.MaxQuestions {
		return nil, fmt.Errorf("questions: want 1-%d, got %d", lim.MaxQuestions, len(p.Questions))
	}
	var qs []permission.Question
	texts := map[string]bool{}
	for i, gq := range p.Questions {
		path := "questions[" + strconv.Itoa(i) + "]"
		text := strings.TrimSpace(gq.Question)
		if text == "" || texts[text] {
			return nil, fmt.Errorf("%s.question: want a unique, non-empty question, got %q", path, gq.Question)
		}
		texts[text] = true
		if lim.MaxOptions > 0 && len(gq.Options) > lim.MaxOptions {
			return nil, fmt.Errorf("%s.options: %d, the limit is %d", path, len(gq.Options), lim.MaxOptions)
		}
		q := permission.Question{Question: gq.Question, Header: text, Kind: permission.AnswerKind{Many: gq.MultiSelect != nil && *gq.MultiSelect}}
		labels := map[string]bool{}
		for j, o := range gq.Options {
			if strings.TrimSpace(o.Label) == "" || labels[o.Label] || o.Label == other {
				return nil, fmt.Errorf("%s.options[%d].label: want a unique, non-empty label other than %q, got %q", path, j, other, o.Label)
			}
			labels[o.Label] = true
			q.Options = append(q.Options, permission.Option{Label: o.Label, Description: o.Description})
		}
		qs = append(qs, q)
	}
	if len(qs) == 0 {
		return nil, errors.New("questions: none")
	}
	return qs, nil
}

// answers is an answered set as Grok reads it: the labels picked per
// question text, and typed text as "Other" with the text in the notes.
func answers(r permission.Result) accepted {
	out := accepted{Outcome: "accepted", Answers: map[string][]string{}}
	for _, a := range r.Answers {
		if a.Index < 0 {
			continue
		}
		labels := append([]string{}, a.Answer.Labels...)
		if a.Answer.Other {
			labels = append(labels, other)
			note := a.Answer.Custom
			if note == "" {
				note = permission.OtherWithoutText
			}
			if out.Annotations == nil {
				out.Annotations = map[string]annotation{}
			}
			out.Annotations[a.Question.Question] = annotation{Notes: note}
		}
		out.Answers[a.Question.Question] = labels
	}
	return out
}

// inWords answers every question with the same words, typed.
func inWords(qs []permission.Question, words string) accepted {
	var r permission.Result
	for i, q := range qs {
		r.Answers = append(r.Answers, permission.Answered{Question: q, Index: i, Answer: permission.Answer{Other: true, Custom: words}})
	}
	return answers(r)
}

// read is the client's own answer, for the board.
func read(qs []permission.Question, resp json.RawMessage) permission.Result {
	var r struct {
		Result *accepted `json:"result"`
	}
	if json.Unmarshal(resp, &r) != nil || r.Result == nil {
		return permission.Result{Cancelled: true, Reason: "no answer from the editor"}
	}
	if r.Result.Outcome != "accepted" {
		return permission.Result{Cancelled: true, Reason: r.Result.Outcome + " in the editor"}
	}
	var res permission.Result
	for i, q := range qs {
		var a permission.Answer
		for _, l := range r.Result.Answers[q.Question] {
			if l == other {
				a.Other, a.Custom = true, r.Result.Annotations[q.Question].Notes
			} else {
				a.Labels = append(a.Labels, l)
			}
		}
		res.Answers = append(res.Answers, permission.Answered{Question: q, Answer: a, Index: i, Path: "questions[" + strconv.Itoa(i) + "]"})
	}
	return res
}
