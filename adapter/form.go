package adapter

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/askbridge/askbridge/permission"
)

// askForm asks a question set as one form elicitation, for a client that
// renders forms: the shape claude-agent-acp uses, question_<n> with a
// question_<n>_custom free-text companion.
func (b *Bridge) askForm(ctx context.Context, req permission.Request) (permission.Result, error) {
	if _, ok := b.board.NextRound(req.SessionID, b.opts.MaxRounds); !ok {
		b.tellRoundLimit(req.SessionID)
		return permission.Result{}, errRoundLimit
	}
	raw, err := b.relay.Client.Call(ctx, "elicitation/create", formRequest(req))
	if err != nil {
		if ctx.Err() != nil {
			return permission.Result{Cancelled: true, Reason: context.Cause(ctx).Error()}, nil
		}
		return permission.Result{}, err
	}
	var resp struct {
		Action  string                     `json:"action"`
		Content map[string]json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(raw, &resp); err != nil {
		return permission.Result{}, fmt.Errorf("elicitation/create result: %v", err)
	}
	if resp.Action != "accept" {
		return permission.Result{Cancelled: true, Reason: "the user chose " + resp.Action}, nil
	}
	var res permission.Result
	for i, q := range req.Questions {
		var a permission.Answer
		key := fmt.Sprintf("question_%d", i)
		var one string
		var many []string
		if json.Unmarshal(resp.Content[key], &one) == nil && one != "" {
			a.Labels = []string{one}
		} else if json.Unmarshal(resp.Content[key], &many) == nil {
			a.Labels = many
		}
		var custom string
		if json.Unmarshal(resp.Content[key+"_custom"], &custom) == nil && strings.TrimSpace(custom) != "" {
			a.Other, a.Custom = true, strings.TrimSpace(custom)
		}
		res.Answers = append(res.Answers, permission.Answered{Question: q, Answer: a, Index: i, Path: fmt.Sprintf("questions[%d]", i)})
	}
	return res, nil
}

// formRequest is the elicitation/create params for a question set.
func formRequest(req permission.Request) map[string]any {
	props := map[string]any{}
	var order []string
	for i, q := range req.Questions {
		var opts []map[string]string
		for _, o := range q.Options {
			c := map[string]string{"const": o.Label, "title": o.Label}
			if o.Description != "" {
				c["description"] = o.Description
			}
			opts = append(opts, c)
		}
		key := fmt.Sprintf("question_%d", i)
		field := map[string]any{"type": "string", "title": q.Header, "description": q.Question, "oneOf": opts}
		if q.MultiSelect {
			field = map[string]any{"type": "array", "title": q.Header, "description": q.Question, "items": map[string]any{"anyOf": opts}}
		}
		props[key] = field
		props[key+"_custom"] = map[string]any{"type": "string", "title": "Other", "description": "Type your own answer (optional)."}
		order = append(order, key, key+"_custom")
	}
	message := "Please answer the following questions."
	if len(req.Questions) == 1 {
		message = req.Questions[0].Question
	}
	params := map[string]any{
		"mode":            "form",
		"sessionId":       req.SessionID,
		"message":         message,
		"requestedSchema": orderedObject{keys: order, values: props, extra: map[string]any{"type": "object"}},
	}
	if req.ToolCallID != "" {
		params["toolCallId"] = req.ToolCallID
	}
	return params
}

// orderedObject marshals as {"type":..., "properties":{...}} with the
// properties in the given order, which is the order a client shows them.
type orderedObject struct {
	keys   []string
	values map[string]any
	extra  map[string]any
}

func (o orderedObject) MarshalJSON() ([]byte, error) {
	var sb strings.Builder
	sb.WriteString(`{"type":"object","properties":{`)
	for i, k := range o.keys {
		if i > 0 {
			sb.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		vb, err := json.Marshal(o.values[k])
		if err != nil {
			return nil, err
		}
		sb.Write(kb)
		sb.WriteByte(':')
		sb.Write(vb)
	}
	sb.WriteString("}}")
	return []byte(sb.String()), nil
}
