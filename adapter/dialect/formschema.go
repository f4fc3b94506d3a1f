package dialect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/askbridge/askbridge/permission"
)

// A form elicitation's requestedSchema seen as questions: one question per
// field a choice can fill, with the free-text fields that companion them
// (filled by "Other"). Which field companions which is the dialect's to
// say (Claude's `question_<n>_custom`, Codex's `<id>_note`), so the dialect
// passes a companionOf rule.

// Form is a requestedSchema as questions.
type Form struct {
	Questions []permission.Question
	Fields    []FormField // parallel to questions
	required  map[string]bool
	order     []string // every property, in schema order
}

type FormField struct {
	Name      string
	Kind      string         // "single", "multi", "bool", "text"
	valueType string         // JSON type of a text field: string, number, integer
	consts    map[string]any // option label -> value to send
	Companion string         // the free-text field "Other" fills, if any
}

// SchemaProp is the part of a property schema the bridge understands. The
// SDK types a requestedSchema's properties as a map of anything, which also
// loses their order; this keeps both.
type SchemaProp struct {
	Type        string          `json:"type"`
	Format      string          `json:"format"` // "password": what is typed is secret
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Enum        []any           `json:"enum"`
	EnumNames   []string        `json:"enumNames"`
	OneOf       []schemaConst   `json:"oneOf"`
	AnyOf       []schemaConst   `json:"anyOf"`
	Items       *SchemaProp     `json:"items"`
	Default     any             `json:"default"`
	Meta        json.RawMessage `json:"_meta"`
}

type schemaConst struct {
	Const       any    `json:"const"`
	Title       string `json:"title"`
	Description string `json:"description"`
}

// CompanionRule says which choice field a free-text field companions
// ("" for none); props holds every property by name.
type CompanionRule func(name string, p *SchemaProp, props map[string]*SchemaProp) string

// ParseForm turns a requestedSchema into questions, in property order.
func ParseForm(message string, raw json.RawMessage, companionOf CompanionRule) (*Form, error) {
	var schema struct {
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if err := json.Unmarshal(raw, &schema); err != nil {
		return nil, fmt.Errorf("requestedSchema: %v", err)
	}
	names, props, err := OrderedProps(schema.Properties)
	if err != nil {
		return nil, fmt.Errorf("requestedSchema.properties: %v", err)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("requestedSchema.properties: no fields to ask")
	}
	f := &Form{required: map[string]bool{}, order: names}
	for _, r := range schema.Required {
		f.required[r] = true
	}
	companions := map[string]string{} // choice field -> its free-text companion
	for _, n := range names {
		if of := companionOf(n, props[n], props); of != "" && of != n && props[of] != nil && props[n].Type == "string" {
			companions[of] = n
		}
	}
	isCompanion := map[string]bool{}
	for _, c := range companions {
		isCompanion[c] = true
	}
	asked := len(names) - len(isCompanion)
	for _, n := range names {
		if isCompanion[n] {
			continue
		}
		q, fld, err := f.field(n, props[n], companions[n])
		if err != nil {
			return nil, err
		}
		if asked == 1 && message != "" {
			q.Question = message
		}
		// A password field, or a choice whose typed companion is one, asks
		// a secret (permission.SecretText).
		q.Kind.Secret = props[n].Format == "password" || (companions[n] != "" && props[companions[n]].Format == "password")
		f.Questions = append(f.Questions, q)
		f.Fields = append(f.Fields, fld)
	}
	return f, nil
}

func (f *Form) field(n string, p *SchemaProp, companion string) (permission.Question, FormField, error) {
	q := permission.Question{Header: firstNonEmpty(p.Title, n), Question: firstNonEmpty(p.Description, p.Title, n)}
	fld := FormField{Name: n, consts: make(map[string]any), Companion: companion}
	switch {
	case p.Type == "string" && (len(p.OneOf) > 0 || len(p.Enum) > 0):
		fld.Kind = "single"
		addChoices(&q, &fld, p.OneOf, p.Enum, p.EnumNames)
	case p.Type == "array" && p.Items != nil && (len(p.Items.AnyOf) > 0 || len(p.Items.OneOf) > 0 || len(p.Items.Enum) > 0):
		fld.Kind = "multi"
		q.Kind.Many = true
		addChoices(&q, &fld, append(p.Items.AnyOf, p.Items.OneOf...), p.Items.Enum, p.Items.EnumNames)
	case p.Type == "boolean":
		fld.Kind = "bool"
		q.Options = []permission.Option{{Label: "Yes"}, {Label: "No"}}
		fld.consts["Yes"], fld.consts["No"] = true, false
	case p.Type == "string" || p.Type == "number" || p.Type == "integer":
		// Free text: only "Other" can fill it. An optional field can be skipped.
		fld.Kind = "text"
		fld.valueType = p.Type
		fld.Companion = n
		if !f.required[n] {
			q.Options = []permission.Option{{Label: "Skip", Description: "leave " + q.Header + " empty"}}
		}
	default:
		return q, fld, fmt.Errorf("requestedSchema.properties.%s: type %q cannot be asked as a choice", n, p.Type)
	}
	// A choice with no free-text field beside it can only send one of its
	// values: Kimi Code drops any other and reads the form as dismissed.
	// "Other" is not offered where what the user types would be lost.
	q.Kind.Fixed = fld.Kind != "text" && fld.Companion == ""
	return q, fld, nil
}

// checkLimits bounds a form as a question set is bounded: a form of 500
// fields, or a choice of 1,000 values, is not shown as 500 requests or one
// request of 1,001 buttons.
func (f *Form) checkLimits(lim permission.Limits) error {
	if lim.MaxQuestions > 0 && len(f.Questions) > lim.MaxQuestions {
		return fmt.Errorf("requestedSchema: %d fields to ask, the limit is %d", len(f.Questions), lim.MaxQuestions)
	}
	for i, q := range f.Questions {
		if lim.MaxOptions > 0 && len(q.Options) > lim.MaxOptions {
			return fmt.Errorf("requestedSchema.properties.%s: %d choices, the limit is %d", f.Fields[i].Name, len(q.Options), lim.MaxOptions)
		}
	}
	return nil
}

func addChoices(q *permission.Question, f *FormField, consts []schemaConst, enum []any, names []string) {
	for _, c := range consts {
		label := firstNonEmpty(c.Title, fmt.Sprint(c.Const))
		q.Options = append(q.Options, permission.Option{Label: label, Description: c.Description})
		f.consts[label] = c.Const
	}
	for i, e := range enum {
		label := fmt.Sprint(e)
		if i < len(names) && names[i] != "" {
			label = names[i]
		}
		q.Options = append(q.Options, permission.Option{Label: label})
		f.consts[label] = e
	}
}

// content builds the accept content from the answers, typed per the schema.
func (f *Form) Content(res permission.Result) map[string]any {
	out := make(map[string]any, len(f.Fields))
	for i, fld := range f.Fields {
		if i >= len(res.Answers) {
			break
		}
		a := res.Answers[i].Answer
		switch fld.Kind {
		case "single", "bool":
			if len(a.Labels) > 0 {
				out[fld.Name] = fld.consts[a.Labels[0]]
			}
		case "multi":
			vals := []any{}
			for _, l := range a.Labels {
				vals = append(vals, fld.consts[l])
			}
			if len(vals) > 0 || fld.Companion == "" || a.Custom == "" {
				out[fld.Name] = vals
			}
		}
		// The companion holds the typed text alone: the picks are in the
		// choice field already, and the agent joins the two itself (Claude
		// adds the text to a multi-select's picks, or makes it a pick's
		// note). Beside a choice, Other without typed text tells the model
		// the user will answer in the chat; a field of its own stays empty.
		text := a.Custom
		if fld.Kind != "text" && text == "" {
			text = permission.OtherWithoutText
		}
		if a.Other && fld.Companion != "" && text != "" {
			if v, ok := typed(text, fld.valueType); ok {
				out[fld.Companion] = v
			}
		}
	}
	return out
}

// missing lists the required fields content leaves empty.
func (f *Form) Missing(content map[string]any) []string {
	var out []string
	for _, n := range f.order {
		if _, ok := content[n]; f.required[n] && !ok {
			out = append(out, n)
		}
	}
	return out
}

// typed converts typed text to the field's JSON type. NaN and infinities
// are no JSON numbers: a reply carrying one could never be sent.
func typed(text, valueType string) (any, bool) {
	switch valueType {
	case "integer":
		n, err := strconv.ParseInt(strings.TrimSpace(text), 10, 64)
		return n, err == nil
	case "number":
		n, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
		return n, err == nil && !math.IsNaN(n) && !math.IsInf(n, 0)
	default:
		return text, true
	}
}

// OrderedProps decodes a properties object keeping its key order, which is
// the order the agent wants its questions asked in.
func OrderedProps(raw json.RawMessage) ([]string, map[string]*SchemaProp, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, nil, fmt.Errorf("want an object")
	}
	var names []string
	props := map[string]*SchemaProp{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		name := t.(string)
		p := &SchemaProp{}
		if err := dec.Decode(p); err != nil {
			return nil, nil, fmt.Errorf("%s: %v", name, err)
		}
		names = append(names, name)
		props[name] = p
	}
	return names, props, nil
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}
