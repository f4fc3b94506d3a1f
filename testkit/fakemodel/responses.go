package fakemodel

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
)

// responsesRequest is the part of a Responses API request the script reads.
type responsesRequest struct {
	Model  string `json:"model"`
	Stream bool   `json:"stream"`
	Input  []struct {
		Type   string          `json:"type"`
		CallID string          `json:"call_id"`
		Output json.RawMessage `json:"output"` // a string or content items
	} `json:"input"`
	Tools []struct {
		Name string `json:"name"`
	} `json:"tools"`
}

// responses serves POST /v1/responses as Codex calls it: stream:true, the
// whole conversation in input (function_call_output items carry the tool
// results), answered with server-sent events each naming its type twice
// (event: and data.type) and numbered by sequence_number.
func (s *Server) responses(w http.ResponseWriter, r *http.Request) {
	var req responsesRequest
	offered, ok := s.decode(w, r, "a Responses API request", &req)
	if !ok {
		return
	}
	found := map[string]ToolResult{}
	for _, item := range req.Input {
		if item.Type == "function_call_output" {
			found[item.CallID] = ToolResult{Text: textOf(item.Output)}
		}
	}
	t := s.next(offered, found, "call")
	s.logger.Debug("fakemodel: responses", "offered", offered, "call", t.Call)

	n := len(s.Requests())
	model := req.Model
	if model == "" {
		model = "fake-model"
	}
	var item map[string]any
	if t.Call >= 0 {
		item = map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_askbridge_%d", t.Call),
			"call_id": callID("call", t.Call), "name": s.script.Tool, "arguments": string(s.script.Calls[t.Call]), "status": "completed"}
	} else {
		item = map[string]any{"type": "message", "id": fmt.Sprintf("msg_fake_%d", n), "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": t.Text, "annotations": []any{}}}}
	}
	response := func(status string, output []any) map[string]any {
		return map[string]any{"id": fmt.Sprintf("resp_fake_%d", n), "object": "response", "created_at": 1700000000,
			"status": status, "model": model, "output": output}
	}
	if !req.Stream {
		done := response("completed", []any{item})
		done["usage"] = responsesUsage
		writeJSON(w, done)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	seq := 0
	emit := func(typ string, fields map[string]any) {
		fields["type"], fields["sequence_number"] = typ, seq
		seq++
		sse(w, typ, fields)
	}
	emit("response.created", map[string]any{"response": response("in_progress", []any{})})
	emit("response.in_progress", map[string]any{"response": response("in_progress", []any{})})
	at := map[string]any{"output_index": 0, "item_id": item["id"]}
	if t.Call >= 0 {
		added := merge(item, map[string]any{"arguments": "", "status": "in_progress"})
		emit("response.output_item.added", map[string]any{"output_index": 0, "item": added})
		// Two deltas, as a real model streams partial JSON.
		args := item["arguments"].(string)
		half := len(args) / 2
		for _, part := range []string{args[:half], args[half:]} {
			emit("response.function_call_arguments.delta", merge(at, map[string]any{"delta": part}))
		}
		emit("response.function_call_arguments.done", merge(at, map[string]any{"arguments": args}))
	} else {
		added := map[string]any{"type": "message", "id": item["id"], "role": "assistant", "status": "in_progress", "content": []any{}}
		emit("response.output_item.added", map[string]any{"output_index": 0, "item": added})
		idx := map[string]any{"content_index": 0}
		emit("response.content_part.added", merge(at, idx, map[string]any{"part": map[string]any{"type": "output_text", "text": "", "annotations": []any{}}}))
		emit("response.output_text.delta", merge(at, idx, map[string]any{"delta": t.Text}))
		emit("response.output_text.done", merge(at, idx, map[string]any{"text": t.Text}))
		emit("response.content_part.done", merge(at, idx, map[string]any{"part": map[string]any{"type": "output_text", "text": t.Text, "annotations": []any{}}}))
	}
	emit("response.output_item.done", map[string]any{"output_index": 0, "item": item})
	done := response("completed", []any{item})
	done["usage"] = responsesUsage
	emit("response.completed", map[string]any{"response": done})
}

var responsesUsage = map[string]any{
	"input_tokens": 10, "input_tokens_details": map[string]int{"cached_tokens": 0},
	"output_tokens": 5, "output_tokens_details": map[string]int{"reasoning_tokens": 0},
	"total_tokens": 15,
}

// merge returns one map with the fields of all, later ones winning.
func merge(all ...map[string]any) map[string]any {
	out := map[string]any{}
	for _, m := range all {
		maps.Copy(out, m)
	}
	return out
}

func (q *responsesRequest) toolNames() []string {
	var names []string
	for _, t := range q.Tools {
		names = append(names, t.Name)
	}
	return names
}
