package dialect

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	acp "github.com/coder/acp-go-sdk"

	"github.com/askbridge/askbridge/permission"
)

// readResponse reads a client's response to a form it rendered itself as
// the set's result: accepted content as answers (content in reverse), a
// decline, cancel or error as the set cancelled in the editor.
func (f *Form) readResponse(resp json.RawMessage) permission.Result {
	var r struct {
		Result *acp.UnstableCreateElicitationResponse `json:"result"`
		Error  *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	switch {
	case json.Unmarshal(resp, &r) != nil:
		return permission.Result{Cancelled: true, Reason: "the editor's answer to the form cannot be read"}
	case r.Error != nil:
		return permission.Result{Cancelled: true, Reason: "the editor answered the form with an error: " + r.Error.Message}
	case r.Result == nil || r.Result.Accept == nil:
		return permission.Result{Cancelled: true, Reason: "the user did not accept the form"}
	}
	return f.answers(r.Result.Accept.Content)
}

// answers reads accept content back into answers, one per question: the
// labels whose values the choice fields hold, and a companion's (or a free
// text field's) text as Other.
func (f *Form) answers(content map[string]any) permission.Result {
	var res permission.Result
	for i, fld := range f.Fields {
		var a permission.Answer
		switch v := content[fld.Name]; fld.Kind {
		case "single", "bool":
			if l, ok := fld.label(v); ok {
				a.Labels = []string{l}
			}
		case "multi":
			list, _ := v.([]any)
			for _, item := range list {
				if l, ok := fld.label(item); ok {
					a.Labels = append(a.Labels, l)
				}
			}
		}
		if fld.Companion != "" {
			if text := strings.TrimSpace(textOf(content[fld.Companion])); text != "" {
				a.Other, a.Custom = true, text
			}
		}
		res.Answers = append(res.Answers, permission.Answered{Question: f.Questions[i], Answer: a, Index: i, Path: "requestedSchema.properties." + fld.Name})
	}
	return res
}

// label is the option whose value v is; a value no option has (Codex's
// "None of the above") is none.
func (fld FormField) label(v any) (string, bool) {
	for l, c := range fld.consts {
		if reflect.DeepEqual(c, v) || fmt.Sprint(c) == fmt.Sprint(v) {
			return l, true
		}
	}
	return "", false
}

func textOf(v any) string {
	switch t := v.(type) {
	case nil:
		return ""
	case string:
		return t
	default:
		return fmt.Sprint(t)
	}
}
