package permission

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	acp "github.com/coder/acp-go-sdk"

	"github.com/askbridge/askbridge/toolinfo"
)

// A yes/no client shows a permission request as one question with two
// answers (acpx: "Allow <title>? (y/N)", y the first allow option, n the
// first reject option; CodeCompanion names each option by its kind, so
// several allow_once options all read "Accept"). Such a client can only
// ever pick the first of several options. Request.YesNo asks each question
// as a walk instead: one request per option, its question and the option
// in the title ("Which database? — Redis: in memory"), with exactly one
// allow option (yes: it is the answer) and one reject option (no: the next
// option). A multi-select asks every option and ends with the yeses.
// After the last option, unless the question has no Other, "Answer in your
// own words in the chat?": yes is Other without text (the model is told
// to ask in the chat), no is a dismissal, as is no to everything.

// Option ids of a yes/no request.
const (
	YesID = "yes"
	NoID  = "no"
)

// ChatStep is the last request of a yes/no walk.
const ChatStep = "Answer in your own words in the chat?"

// yesNoMeta is a yes/no request's _meta.askUserQuestion: which option of
// which question it asks.
type yesNoMeta struct {
	askMeta
	YesNo  bool   `json:"yesNo"`
	Option string `json:"option,omitempty"` // the label asked; empty for the chat step
}

// RenderYesNo returns the params of the yes/no request that asks whether
// option (nil for the chat step) answers p's question.
func RenderYesNo(p Prompt, option *Option) json.RawMessage {
	q := p.Q
	asked := q.Question
	if q.Kind.Link {
		asked += " (" + q.Link + ")" // a yes/no client may show the title alone
	}
	title, text, label := asked+" — "+ChatStep, q.Question+"\n\n"+ChatStep+" (yes: the agent asks you there; no: leave the question unanswered)", ""
	if option != nil {
		label = option.Label
		title = asked + " — " + toolinfo.OptionName(toolinfo.Option{Label: option.Label, Description: option.Description})
		opts := make([]toolinfo.Option, len(q.Options))
		for i, o := range q.Options {
			opts[i] = toolinfo.Option{Label: o.Label, Description: o.Description}
		}
		text = content(q, opts) + "\n\n" + yesNoLine(q, option.Label, p.Picked)
	}
	if p.Total > 1 {
		title = fmt.Sprintf("(%d/%d) %s", p.Index+1, p.Total, title)
	}
	if !p.Deadline.IsZero() {
		text += "\n\n" + toolinfo.DeadlineLine(p.Deadline)
	}
	params := acp.RequestPermissionRequest{
		SessionId: acp.SessionId(p.SessionID),
		ToolCall: acp.ToolCallUpdate{
			ToolCallId: acp.ToolCallId(p.ToolCallID),
			Kind:       acp.Ptr(acp.ToolKind(toolinfo.Kind)),
			Title:      acp.Ptr(title),
			Content:    textContent(text),
		},
		Options: []acp.PermissionOption{
			{Kind: acp.PermissionOptionKindAllowOnce, Name: "Yes", OptionId: YesID},
			{Kind: acp.PermissionOptionKindRejectOnce, Name: "No", OptionId: NoID},
		},
		Meta: map[string]any{
			"askUserQuestion": yesNoMeta{askMeta: askMeta{MultiSelect: q.Kind.Many, Index: p.Index, Total: p.Total, Round: p.Round}, YesNo: true, Option: label},
		},
	}
	b, _ := json.Marshal(params)
	return b
}

// yesNoLine says what yes and no do for the option asked.
func yesNoLine(q Question, label string, picked []string) string {
	if !q.Kind.Many {
		return "Is it " + label + "? Yes picks it; no goes on to the next option."
	}
	line := "Include " + label + "? Pick any: each option is asked in turn."
	if len(picked) > 0 {
		line += " Picked so far: " + strings.Join(picked, ", ") + "."
	}
	return line
}

// askYesNo asks one question as a yes/no walk; cancelled says the user
// dismissed it (the client's cancel, or no to everything).
func (a *asking) askYesNo(ctx context.Context, q Question, index, total int) (Answer, bool, error) {
	var picked []string
	ask := func(o *Option) (yes, cancelled bool, err error) {
		if ctx.Err() != nil {
			return false, true, nil
		}
		params := RenderYesNo(Prompt{SessionID: a.req.SessionID, ToolCallID: a.callID, Q: q, Index: index, Total: total, Round: a.req.Round, Picked: picked, Deadline: a.req.Deadline}, o)
		resp, err := a.peer.RequestPermission(askingSecret(ctx, q.Kind.Secret), params)
		if err != nil {
			if ctx.Err() != nil {
				return false, true, nil
			}
			return false, false, fmt.Errorf("asking %q: %w", q.Question, err)
		}
		return readYesNo(resp)
	}
	for i := range q.Options {
		o := q.Options[i]
		yes, cancelled, err := ask(&o)
		if err != nil || cancelled {
			return Answer{}, cancelled, err
		}
		if yes && !q.Kind.Many {
			return Answer{Labels: []string{o.Label}}, false, nil
		}
		if yes {
			picked = append(picked, o.Label)
		}
	}
	if len(picked) > 0 {
		return Answer{Labels: picked}, false, nil
	}
	if !q.Kind.Typed() || q.Kind.Secret {
		return Answer{}, true, nil
	}
	yes, cancelled, err := ask(nil)
	if err != nil || cancelled || !yes {
		return Answer{}, err == nil, err
	}
	return Answer{Other: true}, false, nil
}

// readYesNo reads a yes/no request's response: yes, no, or cancelled.
func readYesNo(resp []byte) (yes, cancelled bool, err error) {
	var r struct {
		Outcome struct {
			Outcome  string `json:"outcome"`
			OptionID string `json:"optionId"`
		} `json:"outcome"`
	}
	if err := json.Unmarshal(resp, &r); err != nil {
		return false, false, fmt.Errorf("permission response: %v", err)
	}
	switch {
	case r.Outcome.Outcome == "cancelled":
		return false, true, nil
	case r.Outcome.Outcome != "selected":
		return false, false, fmt.Errorf("permission response: unknown outcome %q", r.Outcome.Outcome)
	case r.Outcome.OptionID == YesID:
		return true, false, nil
	case r.Outcome.OptionID == NoID:
		return false, false, nil
	}
	return false, false, fmt.Errorf("permission response: %q is not an option of the yes/no request", r.Outcome.OptionID)
}
