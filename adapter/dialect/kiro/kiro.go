package kiro

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/permission"
)

// Dialect is the dialect of Kiro CLI (2.14 and later). Its agent asks with a
// blocking extension request, _kiro/userInput {sessionId, toolCallId,
// question, options}, answered {action:"answered", answer} or
// {action:"dismissed"}; the answer is an option's title, "Title [Sub1,
// Sub2]" for an option with sub-options, or typed text. Kiro sends it only
// to a client whose capabilities' _meta says kiro.userInput (otherwise it
// flattens the question into a permission request and drops free-form
// ones), so askbridge advertises that. The request goes to the client
// first and askbridge serves it on -32601 (dialect.Extension): a client that
// implements Kiro's method keeps its own UI; meanwhile the question is
// watched.
//
// The shapes follow the clients that implement Kiro's method (they were not
// verified with a live Kiro, which cannot be installed here).
type Dialect struct{}

// UserInput is Kiro's question method.
const UserInput = "_kiro/userInput"

// Name implements Dialect.
func (*Dialect) Name() string { return "kiro" }

// Hooks implements Dialect.
func (*Dialect) Hooks() []dialect.Hook {
	return []dialect.Hook{{From: dialect.FromAgent, Method: UserInput}}
}

// Advertise implements Advertiser.
func (*Dialect) Advertise() []dialect.Default {
	return []dialect.Default{{Path: []string{"clientCapabilities", "_meta", "kiro", "userInput"}, Value: json.RawMessage(`true`)}}
}

// Agent implements Targeted: only Kiro CLI reads that key.
func (*Dialect) Agent() string { return "kiro" }

// request is _kiro/userInput's params.
type request struct {
	SessionID  string   `json:"sessionId"`
	ToolCallID string   `json:"toolCallId"`
	Question   string   `json:"question"`
	Options    []option `json:"options"`
}

type option struct {
	Title           string      `json:"title"`
	Description     string      `json:"description"`
	SubOptionsLabel string      `json:"subOptionsLabel"`
	SubOptions      []subOption `json:"subOptions"`
	Recommended     bool        `json:"recommended"`
}

type subOption struct {
	Title       string `json:"title"`
	Description string `json:"description"`
}

// result is what Kiro reads back.
type result struct {
	Action string `json:"action"` // "answered" or "dismissed"
	Answer string `json:"answer,omitempty"`
}

// Claim implements Dialect.
func (d *Dialect) Claim(h dialect.Host, m *relay.Message) *dialect.Claim {
	if m.ID == nil {
		return nil // no request: nothing to answer, the client's to show
	}
	var p request
	parseErr := m.Params(&p)
	session := h.ActiveSession(p.SessionID)
	var q permission.Question
	return &dialect.Claim{
		SessionID:    session,
		ToolCallID:   p.ToolCallID,
		Mode:         dialect.Extension, // on the board while the client has it
		ReadResponse: func(resp json.RawMessage) permission.Result { return read(q, resp) },
		Questions: func(context.Context) ([]permission.Question, error) {
			if parseErr != nil {
				return nil, fmt.Errorf("params: %v", parseErr)
			}
			var err error
			if q, err = p.question(h.Limits()); err != nil {
				return nil, err
			}
			if session == "" {
				return nil, dialect.ErrNoSession()
			}
			return []permission.Question{q}, nil
		},
		Reply: func(_ context.Context, o dialect.Outcome) (any, error) {
			switch o.Status {
			case dialect.Invalid:
				// Kiro's own clients dismiss what they cannot show: the
				// agent goes on, where an error would fail its tool.
				h.Logger().Warn("kiro: cannot ask this question; dismissing it", "err", o.Err)
				return result{Action: "dismissed"}, nil
			case dialect.Cancelled, dialect.Refused:
				return result{Action: "dismissed"}, nil
			case dialect.TimedOut:
				return result{Action: "answered", Answer: permission.NoAnswerInTime}, nil
			}
			return result{Action: "answered", Answer: answer(o.Result)}, nil
		},
	}
}

// question is the request as askbridge's question: one option per title,
// and an option's sub-options as a multi-select asked when it is picked.
func (p request) question(lim permission.Limits) (permission.Question, error) {
	// Kiro's question has no header: its text heads it, as Cursor's do.
	q := permission.Question{Question: strings.TrimSpace(p.Question)}
	q.Header = q.Question
	if q.Question == "" {
		return q, errors.New("question: required")
	}
	if lim.MaxOptions > 0 && len(p.Options) > lim.MaxOptions {
		return q, fmt.Errorf("options: %d, the limit is %d", len(p.Options), lim.MaxOptions)
	}
	seen := map[string]bool{}
	for i, o := range p.Options {
		if strings.TrimSpace(o.Title) == "" || seen[o.Title] {
			return q, fmt.Errorf("options[%d].title: want a unique, non-empty title, got %q", i, o.Title)
		}
		seen[o.Title] = true
		desc := o.Description
		if o.Recommended {
			desc = strings.TrimSpace(desc + " (recommended)")
		}
		q.Options = append(q.Options, permission.Option{Label: o.Title, Description: desc})
		if n := len(o.SubOptions); n > 0 && (lim.MaxOptions == 0 || n <= lim.MaxOptions) {
			label := firstNonEmpty(o.SubOptionsLabel, o.Title)
			sub := permission.Question{Question: label, Header: label, Kind: permission.Multi}
			for _, s := range o.SubOptions {
				sub.Options = append(sub.Options, permission.Option{Label: s.Title, Description: s.Description})
			}
			if q.FollowUps == nil {
				q.FollowUps = map[string][]permission.Question{}
			}
			q.FollowUps[o.Title] = []permission.Question{sub}
		}
	}
	return q, nil
}

// answer is the result as Kiro reads it: the title picked, with the
// sub-options picked after it in brackets, or the typed text.
func answer(r permission.Result) string {
	var main, sub *permission.Answer
	for i := range r.Answers {
		if r.Answers[i].Index == 0 {
			main = &r.Answers[i].Answer
		} else if r.Answers[i].Index < 0 {
			sub = &r.Answers[i].Answer
		}
	}
	if main == nil {
		return ""
	}
	text := main.Text()
	if sub != nil && !main.Other && len(main.Labels) == 1 {
		text += " [" + sub.Text() + "]"
	}
	return text
}

// read is the client's own answer, for the board: a title is that option,
// other text is typed; anything but "answered" cancels.
func read(q permission.Question, resp json.RawMessage) permission.Result {
	var r struct {
		Result *result `json:"result"`
		Error  *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	switch {
	case json.Unmarshal(resp, &r) != nil || r.Error != nil || r.Result == nil:
		return permission.Result{Cancelled: true, Reason: "no answer from the editor"}
	case r.Result.Action != "answered":
		return permission.Result{Cancelled: true, Reason: "dismissed in the editor"}
	}
	a := permission.Answer{Other: true, Custom: r.Result.Answer}
	for _, o := range q.Options {
		if o.Label == r.Result.Answer {
			a = permission.Answer{Labels: []string{o.Label}}
		}
	}
	return permission.Result{Answers: []permission.Answered{{Question: q, Answer: a, Index: 0, Path: "question"}}}
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}
