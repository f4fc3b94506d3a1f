package adapter

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/askbridge/askbridge/permission"
)

// Elicitation, the dialect of Claude Code (through claude-agent-acp), Devin
// and Codex: an agent asks with elicitation/create in form mode, and only
// when the client advertised clientCapabilities.elicitation.form. askbridge
// advertises it for clients that lack it and answers the form itself, one
// permission request per field.

// onInitialize advertises form elicitation and Qwen's question flag when the
// client lacks them, and remembers whether the client renders forms itself.
func (b *Bridge) onInitialize(m *Message) Verdict {
	var params map[string]json.RawMessage
	if err := m.Params(&params); err != nil || params == nil {
		return Pass
	}
	var caps map[string]json.RawMessage
	json.Unmarshal(params["clientCapabilities"], &caps)
	var elicit map[string]json.RawMessage
	json.Unmarshal(caps["elicitation"], &elicit)
	// Only an object advertises forms: Claude offers AskUserQuestion for
	// "form":{} but not for "form":true.
	form := bytes.TrimSpace(elicit["form"])
	hasForm := len(form) > 0 && form[0] == '{'
	b.mu.Lock()
	b.clientForm = hasForm
	b.mu.Unlock()
	b.logger.Info("client initialize", "clientRendersForms", hasForm, "advertise", b.opts.Advertise)
	if !b.opts.Advertise {
		return Pass
	}
	return RewriteParams(func(raw json.RawMessage) (json.RawMessage, error) {
		return advertise(raw)
	})(m)
}

// advertise adds elicitation.form and _meta["qwen.askUserQuestion"] to the
// initialize params, keeping everything the client sent.
func advertise(raw json.RawMessage) (json.RawMessage, error) {
	var params map[string]json.RawMessage
	if err := json.Unmarshal(raw, &params); err != nil {
		return nil, err
	}
	caps, err := setDefault(params["clientCapabilities"], []string{"elicitation", "form"}, json.RawMessage(`{}`))
	if err != nil {
		return nil, err
	}
	caps, err = setDefault(caps, []string{"_meta", "qwen.askUserQuestion"}, json.RawMessage(`true`))
	if err != nil {
		return nil, err
	}
	params["clientCapabilities"] = caps
	return json.Marshal(params)
}

// setDefault sets obj[path...] = v unless it is present, creating objects
// on the way.
func setDefault(obj json.RawMessage, path []string, v json.RawMessage) (json.RawMessage, error) {
	var m map[string]json.RawMessage
	if len(obj) > 0 && !bytes.Equal(obj, []byte("null")) {
		if err := json.Unmarshal(obj, &m); err != nil {
			return nil, err
		}
	}
	if m == nil {
		m = map[string]json.RawMessage{}
	}
	cur, ok := m[path[0]]
	switch {
	case len(path) == 1:
		if ok && sameKind(cur, v) {
			return obj, nil
		}
		m[path[0]] = v
	default:
		next, err := setDefault(cur, path[1:], v)
		if err != nil {
			return nil, err
		}
		m[path[0]] = next
	}
	return json.Marshal(m)
}

// sameKind reports whether a present value already says what v would:
// an object where an object is wanted, true where true is.
func sameKind(cur, v json.RawMessage) bool {
	cur = bytes.TrimSpace(cur)
	if len(cur) == 0 {
		return false
	}
	if v[0] == '{' {
		return cur[0] == '{'
	}
	return bytes.Equal(cur, v)
}

// elicitParams is the part of elicitation/create the bridge reads.
type elicitParams struct {
	Mode            string          `json:"mode"`
	SessionID       string          `json:"sessionId"`
	ToolCallID      string          `json:"toolCallId"`
	Message         string          `json:"message"`
	RequestedSchema json.RawMessage `json:"requestedSchema"`
}

func (b *Bridge) onElicitation(m *Message) Verdict {
	if b.ClientRendersForms() {
		return Pass
	}
	var p elicitParams
	if err := m.Params(&p); err != nil || p.Mode == "url" {
		return Pass // nothing a permission request could show
	}
	m = m.Clone()
	go b.answerElicitation(m, p)
	return Verdict{Take: true}
}

func (b *Bridge) answerElicitation(m *Message, p elicitParams) {
	form, err := parseForm(p.Message, p.RequestedSchema)
	if err != nil {
		b.logger.Warn("elicitation/create: cannot show this form", "err", err)
		b.relay.Agent.ReplyError(m.ID, InvalidParams("askbridge: "+err.Error(), nil))
		return
	}
	ctx, done := b.begin(context.Background(), p.SessionID, m.ID)
	defer done()
	res, err := b.askClient(ctx, permission.Request{SessionID: p.SessionID, ToolCallID: p.ToolCallID, Questions: form.questions})
	switch {
	case err != nil:
		b.relay.Agent.Reply(m.ID, map[string]string{"action": "decline"})
	case res.Cancelled:
		b.relay.Agent.Reply(m.ID, map[string]string{"action": "cancel"})
	default:
		content, missing := form.content(res)
		if len(missing) > 0 {
			b.logger.Warn("elicitation/create: declining, the client cannot fill required fields", "fields", missing)
			b.relay.Agent.Reply(m.ID, map[string]string{"action": "decline"})
			return
		}
		b.relay.Agent.Reply(m.ID, map[string]any{"action": "accept", "content": content})
	}
}

// form is an elicitation schema seen as questions: one question per field
// a choice can fill, with the free-text companions beside them.
type form struct {
	questions []permission.Question
	fields    []formField // parallel to questions
	required  map[string]bool
	order     []string // every property, in schema order
}

type formField struct {
	name      string
	kind      string         // "single", "multi", "bool", "text"
	valueType string         // JSON type of a text field: string, number, integer
	consts    map[string]any // option label -> value to send
	companion string         // the free-text field "Other" fills, if any
}

// schemaProp is the part of a property schema the bridge understands.
type schemaProp struct {
	Type        string        `json:"type"`
	Title       string        `json:"title"`
	Description string        `json:"description"`
	Enum        []any         `json:"enum"`
	EnumNames   []string      `json:"enumNames"`
	OneOf       []schemaConst `json:"oneOf"`
	AnyOf       []schemaConst `json:"anyOf"`
	Items       *schemaProp   `json:"items"`
	Default     any           `json:"default"`
}

type schemaConst struct {
	Const       any    `json:"const"`
	Title       string `json:"title"`
	Description string `json:"description"`
}

// parseForm turns a requestedSchema into questions, in property order.
func parseForm(message string, raw json.RawMessage) (*form, error) {
	var schema struct {
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if err := json.Unmarshal(raw, &schema); err != nil {
		return nil, fmt.Errorf("requestedSchema: %v", err)
	}
	names, props, err := orderedProps(schema.Properties)
	if err != nil {
		return nil, fmt.Errorf("requestedSchema.properties: %v", err)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("requestedSchema.properties: no fields to ask")
	}
	f := &form{required: map[string]bool{}, order: names}
	for _, r := range schema.Required {
		f.required[r] = true
	}
	companions := map[string]bool{}
	for _, n := range names {
		if strings.HasSuffix(n, "_custom") && props[strings.TrimSuffix(n, "_custom")] != nil && props[n].Type == "string" {
			companions[n] = true
		}
	}
	for _, n := range names {
		if companions[n] {
			continue
		}
		p := props[n]
		q := permission.Question{Header: firstNonEmpty(p.Title, n), Question: firstNonEmpty(p.Description, p.Title, n)}
		if len(names)-len(companions) == 1 && message != "" {
			q.Question = message
		}
		fld := formField{name: n, consts: map[string]any{}}
		if companions[n+"_custom"] {
			fld.companion = n + "_custom"
		}
		switch {
		case p.Type == "string" && (len(p.OneOf) > 0 || len(p.Enum) > 0):
			fld.kind = "single"
			addChoices(&q, &fld, p.OneOf, p.Enum, p.EnumNames)
		case p.Type == "array" && p.Items != nil && (len(p.Items.AnyOf) > 0 || len(p.Items.OneOf) > 0 || len(p.Items.Enum) > 0):
			fld.kind = "multi"
			q.MultiSelect = true
			addChoices(&q, &fld, append(p.Items.AnyOf, p.Items.OneOf...), p.Items.Enum, p.Items.EnumNames)
		case p.Type == "boolean":
			fld.kind = "bool"
			q.Options = []permission.Option{{Label: "Yes"}, {Label: "No"}}
			fld.consts["Yes"], fld.consts["No"] = true, false
		case p.Type == "string" || p.Type == "number" || p.Type == "integer":
			// Free text: only "Other" can fill it. An optional field can be skipped.
			fld.kind = "text"
			fld.valueType = p.Type
			fld.companion = n
			if !f.required[n] {
				q.Options = []permission.Option{{Label: "Skip", Description: "leave " + q.Header + " empty"}}
			}
		default:
			return nil, fmt.Errorf("requestedSchema.properties.%s: type %q cannot be asked as a choice", n, p.Type)
		}
		f.questions = append(f.questions, q)
		f.fields = append(f.fields, fld)
	}
	return f, nil
}

func addChoices(q *permission.Question, f *formField, consts []schemaConst, enum []any, names []string) {
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

// content builds the accept content from the answers, typed per the schema,
// and lists the required fields it could not fill.
func (f *form) content(res permission.Result) (map[string]any, []string) {
	out := map[string]any{}
	for i, fld := range f.fields {
		if i >= len(res.Answers) {
			break
		}
		a := res.Answers[i].Answer
		switch fld.kind {
		case "single", "bool":
			if len(a.Labels) > 0 {
				out[fld.name] = fld.consts[a.Labels[0]]
			}
		case "multi":
			vals := []any{}
			for _, l := range a.Labels {
				vals = append(vals, fld.consts[l])
			}
			if len(vals) > 0 || fld.companion == "" || a.Custom == "" {
				out[fld.name] = vals
			}
		}
		text := a.Custom
		if fld.kind != "text" {
			// Beside a choice, Other without typed text tells the model the
			// user will answer in the chat; a field of its own stays empty.
			text = a.Text()
		}
		if a.Other && fld.companion != "" && text != "" {
			if v, ok := typed(text, fld.valueType); ok {
				out[fld.companion] = v
			}
		}
	}
	var missing []string
	for _, n := range f.order {
		if _, ok := out[n]; f.required[n] && !ok {
			missing = append(missing, n)
		}
	}
	return out, missing
}

// typed converts typed text to the field's JSON type.
func typed(text, valueType string) (any, bool) {
	switch valueType {
	case "integer":
		n, err := strconv.ParseInt(strings.TrimSpace(text), 10, 64)
		return n, err == nil
	case "number":
		n, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
		return n, err == nil
	default:
		return text, true
	}
}

// orderedProps decodes a properties object keeping its key order, which is
// the order the agent wants its questions asked in.
func orderedProps(raw json.RawMessage) ([]string, map[string]*schemaProp, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, nil, fmt.Errorf("want an object")
	}
	var names []string
	props := map[string]*schemaProp{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		name := t.(string)
		p := &schemaProp{}
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
