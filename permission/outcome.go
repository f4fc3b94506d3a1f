package permission

import (
	"encoding/json"
	"fmt"
	"slices"
)

// Pick is what one permission response says.
type Pick struct {
	Labels    []string // options chosen, in option order
	Other     bool     // "Other" chosen
	Custom    string   // the typed text, when the client sent it
	Done      bool     // "Done" chosen
	All       bool     // the client sent every pick at once (_meta.selectedOptionIds)
	Cancelled bool     // the user dismissed the question
}

// ParseOutcome reads a session/request_permission response for question
// q. The typed text of Other comes from the outcome's _meta.customText,
// several picks at once from _meta.selectedOptionIds; both are also read
// from the result's own _meta, where some clients put them.
func ParseOutcome(q Question, resp json.RawMessage) (Pick, error) {
	var r struct {
		Outcome struct {
			Outcome  string   `json:"outcome"`
			OptionID string   `json:"optionId"`
			Meta     metaPick `json:"_meta"`
		} `json:"outcome"`
		Meta metaPick `json:"_meta"`
	}
	if err := json.Unmarshal(resp, &r); err != nil {
		return Pick{}, fmt.Errorf("permission response: %v", err)
	}
	switch r.Outcome.Outcome {
	case "cancelled":
		return Pick{Cancelled: true}, nil
	case "selected":
	default:
		return Pick{}, fmt.Errorf("permission response: unknown outcome %q", r.Outcome.Outcome)
	}
	meta := r.Outcome.Meta
	if meta.CustomText == nil {
		meta.CustomText = r.Meta.CustomText
	}
	if meta.SelectedOptionIDs == nil {
		meta.SelectedOptionIDs = r.Meta.SelectedOptionIDs
	}
	ids := []string{r.Outcome.OptionID}
	var p Pick
	if meta.SelectedOptionIDs != nil {
		ids = meta.SelectedOptionIDs
		p.All = true
	}
	chosen := map[string]bool{}
	for _, id := range ids {
		switch id {
		case OtherID:
			p.Other = true
		case DoneID:
			p.Done = true
		default:
			if !slices.ContainsFunc(q.Options, func(o Option) bool { return o.Label == id }) {
				return Pick{}, fmt.Errorf("permission response: optionId %q is not an option of %q", id, q.Question)
			}
			chosen[id] = true
		}
	}
	for _, o := range q.Options {
		if chosen[o.Label] {
			p.Labels = append(p.Labels, o.Label)
		}
	}
	if p.Other && meta.CustomText != nil {
		custom, err := Typed(*meta.CustomText)
		if err != nil {
			return Pick{}, fmt.Errorf("permission response: _meta.customText: %v", err)
		}
		p.Custom = custom
	}
	if !q.MultiSelect {
		// One answer to a single-select, whatever the client sent.
		if p.Done {
			return Pick{}, fmt.Errorf("permission response: Done is no option of the single-select %q", q.Question)
		}
		if len(p.Labels) > 1 {
			p.Labels = p.Labels[:1]
		}
	}
	if len(p.Labels) == 0 && !p.Other && !p.Done {
		return Pick{}, fmt.Errorf("permission response: no option chosen for %q", q.Question)
	}
	return p, nil
}

type metaPick struct {
	CustomText        *string  `json:"customText"`
	SelectedOptionIDs []string `json:"selectedOptionIds"`
}
