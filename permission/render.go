package permission

import (
	"encoding/json"
	"strings"
	"time"

	acp "github.com/coder/acp-go-sdk"

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
	// Deadline, when set, is said under the question: after it the agent
	// goes on without the answer.
	Deadline time.Time
	// Again, when set, is why the last typed answer was refused (its
	// kind's check): said under the question asked again.
	Again string
}

// askMeta and claudeMeta are Render's _meta: where the question sits in
// its set, and the marker clients that know Claude Code's question UI look
// for. They are for clients, whichever agent asked.
type askMeta struct {
	MultiSelect bool `json:"multiSelect"`
	Index       int  `json:"index"`
	Total       int  `json:"total"`
	Round       int  `json:"round"`
	// Kind, Input and Hint are a registered kind's (AnswerKind), for a
	// client that can say what its typed text is (the terminal prompter);
	// empty for the flags' kinds, so their requests are as they were.
	Kind  string `json:"kind,omitempty"`
	Input string `json:"input,omitempty"`
	Hint  string `json:"hint,omitempty"`
}

type claudeMeta struct {
	QuestionType string `json:"questionType"`
	MultiSelect  bool   `json:"multiSelect"`
}

// Render returns the params of the session/request_permission that asks p.
func Render(p Prompt) json.RawMessage {
	picked := map[string]bool{}
	for _, l := range p.Picked {
		picked[l] = true
	}
	var shown []toolinfo.Option
	options := []acp.PermissionOption{}
	for _, o := range p.Q.Options {
		if picked[o.Label] {
			continue
		}
		ti := toolinfo.Option{Label: o.Label, Description: o.Description}
		shown = append(shown, ti)
		options = append(options, choice(toolinfo.OptionName(ti), o.Label))
	}
	if p.Q.Kind.Typed() {
		options = append(options, choice(OtherName, OtherID))
	}
	text := content(p.Q, shown)
	if len(p.Picked) > 0 {
		options = append(options, choice(DoneName, DoneID))
		text += "\n\nPicked so far: " + strings.Join(p.Picked, ", ") + ". Pick another, or Done."
	}
	if p.Again != "" {
		text += "\n\n" + p.Again + ": answer again."
	}
	if !p.Deadline.IsZero() {
		text += "\n\n" + toolinfo.DeadlineLine(p.Deadline)
	}
	params := acp.RequestPermissionRequest{
		SessionId: acp.SessionId(p.SessionID),
		ToolCall: acp.ToolCallUpdate{
			ToolCallId: acp.ToolCallId(p.ToolCallID),
			Kind:       acp.Ptr(acp.ToolKind(toolinfo.Kind)),
			Title:      acp.Ptr(questionTitle(p.Q, p.Index, p.Total, p.Round)),
			Content:    textContent(text),
		},
		Options: options,
		Meta: map[string]any{
			"askUserQuestion": askMeta{MultiSelect: p.Q.Kind.Many, Index: p.Index, Total: p.Total, Round: p.Round,
				Kind: p.Q.Kind.Name, Input: p.Q.Kind.Input, Hint: p.Q.Kind.Hint},
			"claudeCode": claudeMeta{QuestionType: "askUserQuestion", MultiSelect: p.Q.Kind.Many},
		},
	}
	b, _ := json.Marshal(params)
	return b
}

// questionTitle is a question's title: its header, or for a question with a Link
// the question itself in full (a sign-in's message carries its code).
func questionTitle(q Question, index, total, round int) string {
	if q.Kind.Link {
		return q.Question
	}
	return toolinfo.Title(q.Header, index, total, round)
}

// content is a question as shown: its text then its options, or for a
// question with a Link its text then the link (its options are the
// buttons).
func content(q Question, options []toolinfo.Option) string {
	if q.Kind.Link {
		return q.Question + "\n\n" + toolinfo.LinkText(q.Link)
	}
	return toolinfo.Content(q.Question, options)
}

// choice is one button: every option askbridge shows is allow_once, since
// picking it answers rather than grants anything.
func choice(name, id string) acp.PermissionOption {
	return acp.PermissionOption{Kind: acp.PermissionOptionKindAllowOnce, Name: name, OptionId: acp.PermissionOptionId(id)}
}

// textContent is ACP tool call content holding one text block.
func textContent(text string) []acp.ToolCallContent {
	return []acp.ToolCallContent{acp.ToolContent(acp.TextBlock(text))}
}
