package codex

import (
	"context"
	"encoding/json"

	acp "github.com/coder/acp-go-sdk"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/permission"
)

// Dialect is the dialect of Codex's request_user_input as codex-acp asks it:
// elicitation/create in form mode, sent only when the client advertised
// clientCapabilities.elicitation.form (otherwise the model silently gets
// {"answers":{}}). Per question the form has a choice field keyed by the
// question's id, whose oneOf ends in codex-acp's own "None of the above",
// and a free-text companion <id>_note (<id>_note1... when taken) marked
// _meta.codex.role "user_note"; every property carries _meta.codex.
//
// askbridge asks one permission request per question. The note is that
// question's Other: typed text goes back in Codex's own encoding,
// <id>:"None of the above" plus <id>_note:text, which the model reads as
// ["None of the above","user_note: text"]; the synthetic choice is not
// offered beside Other. A question marked _meta.codex.isSecret never has
// its answer shown in the tool call. codex-acp announces no tool call for
// the question, so the bridge starts the one the form names and completes
// it. When codex-acp gives up waiting (_meta.codex.autoResolutionMs, or the
// turn is cancelled) it withdraws the form with $/cancel_request, and the
// bridge withdraws the permission request at the client. A client that
// renders forms gets Codex's form untouched, and the set is watched.
type Dialect struct{}

// Name implements Dialect.
func (*Dialect) Name() string { return "codex" }

// Hooks implements Dialect.
func (*Dialect) Hooks() []dialect.Hook {
	return []dialect.Hook{{From: dialect.FromAgent, Method: acp.ClientMethodElicitationCreate}}
}

// Advertise implements Advertiser: codex-acp asks nobody without a form
// capability object, as claude-agent-acp.
func (*Dialect) Advertise() []dialect.Default { return dialect.AdvertiseForms() }

// codex-acp's synthetic choice, added to every question with options unless
// the model offered one of that label itself.
const (
	codexOther     = "None of the above"
	codexOtherHint = "Provide a different answer in the note field."
)

// codexField is the _meta codex-acp puts on each form property.
type codexField struct {
	Codex *struct {
		IsSecret   bool   `json:"isSecret"`
		Role       string `json:"role"`       // "user_note" on a note
		QuestionID string `json:"questionId"` // the question a note belongs to
	} `json:"codex"`
}

func codexMeta(p *dialect.SchemaProp) *codexField {
	var m codexField
	if len(p.Meta) == 0 || json.Unmarshal(p.Meta, &m) != nil || m.Codex == nil {
		return nil
	}
	return &m
}

// Claim implements Dialect: a form with _meta.codex on its properties.
func (d *Dialect) Claim(h dialect.Host, m *relay.Message) *dialect.Claim {
	_, scope, ok := dialect.DecodeElicitation(m)
	if !ok {
		return nil
	}
	secret, ok := codexSecrets(scope.RequestedSchema)
	if !ok {
		return nil
	}
	// codex-acp's message ("Codex needs your input to continue.") says
	// nothing: each question's own text is asked instead.
	c := dialect.FormClaim(h, d.Name(), "", scope, codexCompanion, codexFill)
	c.NewToolCall = true
	questions := c.Questions
	var asked []permission.Question
	c.Questions = func(ctx context.Context) ([]permission.Question, error) {
		qs, err := questions(ctx)
		for i := range qs {
			codexShape(&qs[i], secret)
		}
		asked = qs
		return qs, err
	}
	reply := c.Reply
	c.Reply = func(ctx context.Context, o dialect.Outcome) (any, error) {
		if o.Status == dialect.TimedOut {
			// Codex turns a decline into {"answers":{}}, which reads as
			// nothing at all: each question's note says why instead.
			o = dialect.Outcome{Status: dialect.Answered, Result: noAnswerInTime(asked)}
		}
		return reply(ctx, o)
	}
	return c
}

// noAnswerInTime answers each question with Other, typed: the words that
// tell the model nobody answered in time.
func noAnswerInTime(qs []permission.Question) permission.Result {
	var r permission.Result
	for i, q := range qs {
		r.Answers = append(r.Answers, permission.Answered{Question: q, Index: i,
			Answer: permission.Answer{Other: true, Custom: permission.NoAnswerInTime}})
	}
	return r
}

// codexSecrets reads which questions are secret, by title, and whether the
// schema is Codex's at all (some property carries _meta.codex).
func codexSecrets(schema json.RawMessage) (map[string]bool, bool) {
	var s struct {
		Properties json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return nil, false
	}
	names, props, err := dialect.OrderedProps(s.Properties)
	if err != nil {
		return nil, false
	}
	codex, secret := false, map[string]bool{}
	for _, n := range names {
		m := codexMeta(props[n])
		if m == nil {
			continue
		}
		codex = true
		if m.Codex.IsSecret && m.Codex.Role != "user_note" {
			secret[props[n].Title] = true
		}
	}
	return secret, codex
}

// codexCompanion: a note names its question in _meta.codex.questionId.
func codexCompanion(_ string, p *dialect.SchemaProp, props map[string]*dialect.SchemaProp) string {
	if m := codexMeta(p); m != nil && m.Codex.Role == "user_note" && props[m.Codex.QuestionID] != nil {
		return m.Codex.QuestionID
	}
	return ""
}

// codexShape turns a parsed Codex field into the question the model asked:
// codex-acp puts the question in the field's title and the header in its
// description, the reverse of the generic reading; and its synthetic choice
// goes, since Other stands for it.
func codexShape(q *permission.Question, secret map[string]bool) {
	q.Header, q.Question = q.Question, q.Header
	q.Kind.Secret = q.Kind.Secret || secret[q.Question]
	opts := q.Options[:0:0]
	for _, o := range q.Options {
		if o.Label != codexOther || o.Description != codexOtherHint {
			opts = append(opts, o)
		}
	}
	q.Options = opts
}

// codexFill writes Other in Codex's encoding: the choice "None of the
// above" beside the note the generic content already filled.
func codexFill(f *dialect.Form, res permission.Result, content map[string]any) {
	for i, fld := range f.Fields {
		if i >= len(res.Answers) {
			break
		}
		a := res.Answers[i].Answer
		if fld.Kind == "single" && fld.Companion != "" && a.Other && len(a.Labels) == 0 {
			content[fld.Name] = codexOther
		}
	}
}
