package prompt

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	acp "github.com/coder/acp-go-sdk"

	"github.com/askbridge/askbridge/permission"
)

// ErrCancelled is returned when the user cancels (Esc, or input ends).
var ErrCancelled = errors.New("cancelled")

// Choice is one option of a request.
type Choice struct {
	ID   string // the optionId
	Name string // the button text
}

// Request is a permission request as the terminal shows it.
type Request struct {
	Title   string
	Text    string // the question and its options, as the client would show them
	Choices []Choice
	Multi   bool // several choices may be picked at once
	Round   int  // the round in the session; named from 2 on
	// Denial: the request is an approval whose Other is Deny… (DenyMark).
	Denial bool
	// Kind is the question's, when the request names a registered kind
	// (_meta.askUserQuestion.kind): what Other's text must be.
	Kind permission.AnswerKind
}

// Reply is what the user chose.
type Reply struct {
	IDs    []string // chosen option ids
	Custom string   // text typed for "Other"
}

// Prompter asks one request.
type Prompter interface {
	Prompt(ctx context.Context, r Request) (Reply, error)
}

// The option ids askbridge gives "Other" and "Done".
const (
	otherID = "__other__"
	doneID  = "__done__"
)

// Parse reads session/request_permission params into a Request.
func Parse(params []byte) (Request, error) {
	var p struct {
		ToolCall struct {
			Title   string `json:"title"`
			Content []struct {
				Content struct {
					Text string `json:"text"`
				} `json:"content"`
			} `json:"content"`
		} `json:"toolCall"`
		Options []struct {
			OptionID string `json:"optionId"`
			Name     string `json:"name"`
		} `json:"options"`
		Meta struct {
			Ask struct {
				MultiSelect bool   `json:"multiSelect"`
				Round       int    `json:"round"`
				Kind        string `json:"kind"`
				Input       string `json:"input"`
				Hint        string `json:"hint"`
			} `json:"askUserQuestion"`
		} `json:"_meta"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return Request{}, fmt.Errorf("permission request: %v", err)
	}
	if len(p.Options) == 0 {
		return Request{}, errors.New("permission request: no options")
	}
	r := Request{Title: p.ToolCall.Title, Multi: p.Meta.Ask.MultiSelect, Round: p.Meta.Ask.Round}
	if ask := p.Meta.Ask; ask.Kind != "" {
		r.Kind = permission.KindFromFlags(ask.Kind, ask.MultiSelect, false, false, false)
		if r.Kind.Input == "" && r.Kind.Hint == "" { // a kind this askbridge does not know
			r.Kind.Input, r.Kind.Hint = ask.Input, ask.Hint
		}
	}
	if len(p.ToolCall.Content) > 0 {
		r.Text = p.ToolCall.Content[0].Content.Text
	}
	for _, o := range p.Options {
		r.Choices = append(r.Choices, Choice{ID: o.OptionID, Name: o.Name})
	}
	return r, nil
}

// Answer asks a session/request_permission with p and returns the response
// a client would send: the picks in _meta.selectedOptionIds, the typed
// text in _meta.customText, or a cancelled outcome.
func Answer(ctx context.Context, p Prompter, params []byte) ([]byte, error) {
	r, err := Parse(params)
	if err != nil {
		return nil, err
	}
	reply, err := p.Prompt(ctx, r)
	cancelled := acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeCancelled()}
	if errors.Is(err, ErrCancelled) {
		return json.Marshal(cancelled)
	}
	if err != nil {
		return nil, err
	}
	if len(reply.IDs) == 0 {
		return json.Marshal(cancelled)
	}
	// The picks and the typed text travel in the outcome's _meta, which
	// the SDK types as a map.
	meta := make(map[string]any, 2)
	if r.Multi {
		meta["selectedOptionIds"] = reply.IDs
	}
	if reply.Custom != "" {
		meta["customText"] = reply.Custom
	}
	selected := acp.RequestPermissionOutcomeSelected{OptionId: acp.PermissionOptionId(reply.IDs[0]), Meta: meta}
	return json.Marshal(acp.RequestPermissionResponse{Outcome: acp.RequestPermissionOutcome{Selected: &selected}})
}

// question is the question text without the option lines the content adds.
func (r Request) question() string {
	for i := 0; i+4 <= len(r.Text); i++ {
		if r.Text[i:i+4] == "\n  -" {
			return r.Text[:i]
		}
	}
	return r.Text
}

// heading is what the terminal prints above the options.
func (r Request) heading() string {
	q := r.question()
	if r.Round >= 2 {
		return fmt.Sprintf("Round %d: %s", r.Round, q)
	}
	return q
}

// AnswerRaw is Answer for a caller that marshals the result itself.
func AnswerRaw(ctx context.Context, p Prompter, params []byte) (json.RawMessage, error) {
	b, err := Answer(ctx, p, params)
	return json.RawMessage(b), err
}

// Peer answers the asking flow's permission requests (permission.Ask) with
// a prompter: askbridge ask in a terminal, and the inbox.
type Peer struct{ Prompter Prompter }

// RequestPermission answers one permission request with the prompter.
func (l Peer) RequestPermission(ctx context.Context, params []byte) ([]byte, error) {
	return Answer(ctx, l.Prompter, params)
}

// Notify drops the flow's notifications: a terminal shows none.
func (l Peer) Notify(context.Context, string, any) error { return nil }

// typedLabel is what the text input for Other says: "Your answer: ", with
// what its kind takes when it says ("Your answer (a number): ").
func (r Request) typedLabel() string {
	if r.Kind.Hint != "" {
		return "Your answer (" + r.Kind.Hint + "): "
	}
	return "Your answer: "
}
