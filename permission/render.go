package permission

import (
	"encoding/json"
	"strings"

	"github.com/askbridge/askbridge/toolinfo"
)

// Option ids askbridge adds to every question.
const (
	OtherID = "__other__" // "Other": the user types an answer (_meta.customText)
	DoneID  = "__done__"  // ends a multi-select asked one pick at a time
)

// Button names of askbridge's own options.
const (
	OtherName = "Other (type custom answer)"
	DoneName  = "Done"
)

// Prompt is one permission request to render.
type Prompt struct {
	SessionID  string
	ToolCallID string
	Q          Question
	Index      int // the question's place in the set, from 0
	Total      int // questions in the set
	Round      int // the set's round in the session (titles name it from 2 on)
	// Picked, in a multi-select asked again, are the labels chosen so far:
	// they are left out of the options and a Done option is added.
	Picked []string
}

// Render returns the params of the session/request_permission that asks p.
func Render(p Prompt) json.RawMessage {
	picked := map[string]bool{}
	for _, l := range p.Picked {
		picked[l] = true
	}
	var shown []toolinfo.Option
	options := []map[string]string{}
	for _, o := range p.Q.Options {
		if picked[o.Label] {
			continue
		}
		ti := toolinfo.Option{Label: o.Label, Description: o.Description}
		shown = append(shown, ti)
		options = append(options, map[string]string{"kind": "allow_once", "name": toolinfo.OptionName(ti), "optionId": o.Label})
	}
	options = append(options, map[string]string{"kind": "allow_once", "name": OtherName, "optionId": OtherID})
	text := toolinfo.Content(p.Q.Question, shown)
	if len(p.Picked) > 0 {
		options = append(options, map[string]string{"kind": "allow_once", "name": DoneName, "optionId": DoneID})
		text += "\n\nPicked so far: " + strings.Join(p.Picked, ", ") + ". Pick another, or Done."
	}
	params := map[string]any{
		"sessionId": p.SessionID,
		"toolCall": map[string]any{
			"toolCallId": p.ToolCallID,
			"kind":       toolinfo.Kind,
			"title":      toolinfo.Title(p.Q.Header, p.Index, p.Total, p.Round),
			"content":    textContent(text),
		},
		"options": options,
		"_meta": map[string]any{
			"askUserQuestion": map[string]any{"multiSelect": p.Q.MultiSelect, "index": p.Index, "total": p.Total, "round": p.Round},
			"claudeCode":      map[string]any{"questionType": "askUserQuestion", "multiSelect": p.Q.MultiSelect},
		},
	}
	b, _ := json.Marshal(params)
	return b
}

// textContent is ACP tool call content holding one text block.
func textContent(text string) []any {
	return []any{map[string]any{"type": "content", "content": map[string]string{"type": "text", "text": text}}}
}
