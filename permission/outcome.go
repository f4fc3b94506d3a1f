package permission

import (
	"encoding/json"
	"fmt"
	"slices"

	acp "github.com/coder/acp-go-sdk"
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
	id, meta, cancelled, err := readSelected(resp)
	if err != nil || cancelled {
		return Pick{Cancelled: cancelled}, err
	}
	ids := []string{id}
	var p Pick
	if meta.SelectedOptionIDs != nil {
		ids = meta.SelectedOptionIDs
		p.All = true
	}
	if err := p.choose(q, ids); err != nil {
		return Pick{}, err
	}
	if p.Other && meta.CustomText != nil {
		custom, err := Typed(*meta.CustomText)
		if err != nil {
			return Pick{}, fmt.Errorf("permission response: _meta.customText: %v", err)
		}
		if err := q.Kind.Check(custom); err != nil && custom != "" {
			return Pick{}, fmt.Errorf("permission response: _meta.customText: %w", err)
		}
		p.Custom = custom
	}
	if !q.Kind.Many {
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

// readSelected reads the outcome of resp: cancelled, or the option id
// selected with what _meta says beside it (the outcome's, else the
// result's own).
func readSelected(resp json.RawMessage) (id string, meta metaPick, cancelled bool, err error) {
	// The SDK's union falls back to a variant for an outcome it does not
	// know; an unknown outcome must be an error, so read the tag first.
	var tag struct {
		Outcome struct {
			Outcome string `json:"outcome"`
		} `json:"outcome"`
	}
	if err := json.Unmarshal(resp, &tag); err != nil {
		return "", meta, false, fmt.Errorf("permission response: %v", err)
	}
	var r acp.RequestPermissionResponse
	if err := json.Unmarshal(resp, &r); err != nil {
		return "", meta, false, fmt.Errorf("permission response: %v", err)
	}
	switch {
	case tag.Outcome.Outcome == "cancelled":
		return "", meta, true, nil
	case tag.Outcome.Outcome != "selected" || r.Outcome.Selected == nil:
		return "", meta, false, fmt.Errorf("permission response: unknown outcome %q", tag.Outcome.Outcome)
	}
	if meta, err = readMeta(r.Outcome.Selected.Meta, "outcome._meta"); err != nil {
		return "", meta, false, err
	}
	outer, err := readMeta(r.Meta, "_meta")
	if err != nil {
		return "", meta, false, err
	}
	if meta.CustomText == nil {
		meta.CustomText = outer.CustomText
	}
	if meta.SelectedOptionIDs == nil {
		meta.SelectedOptionIDs = outer.SelectedOptionIDs
	}
	return string(r.Outcome.Selected.OptionId), meta, false, nil
}

// choose takes the option ids picked of q: Other, Done, and the options'
// labels, in option order.
func (p *Pick) choose(q Question, ids []string) error {
	chosen := map[string]bool{}
	for _, id := range ids {
		switch id {
		case OtherID:
			if !q.Kind.Typed() {
				return fmt.Errorf("permission response: %q takes no typed answer: Other is not an option of it", q.Question)
			}
			p.Other = true
		case DoneID:
			p.Done = true
		default:
			if !slices.ContainsFunc(q.Options, func(o Option) bool { return o.Label == id }) {
				return fmt.Errorf("permission response: optionId %q is not an option of %q", id, q.Question)
			}
			chosen[id] = true
		}
	}
	for _, o := range q.Options {
		if chosen[o.Label] {
			p.Labels = append(p.Labels, o.Label)
		}
	}
	return nil
}

// metaPick is what clients put in an outcome's _meta (or the result's):
// the typed text of Other, several picks at once.
type metaPick struct {
	CustomText        *string  `json:"customText"`
	SelectedOptionIDs []string `json:"selectedOptionIds"`
}

// readMeta reads the SDK's untyped _meta into metaPick; a member of the
// wrong type is an error naming it.
func readMeta(m map[string]any, path string) (metaPick, error) {
	var p metaPick
	if m == nil {
		return p, nil
	}
	b, err := json.Marshal(m)
	if err == nil {
		err = json.Unmarshal(b, &p)
	}
	if err != nil {
		return p, fmt.Errorf("permission response: %s: %v", path, err)
	}
	return p, nil
}
