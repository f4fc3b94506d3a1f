package fakemodel

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// anthropicRequest is the part of a Messages API request the script reads.
type anthropicRequest struct {
	Stream   bool `json:"stream"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"` // a string or blocks
	} `json:"messages"`
	Tools []struct {
		Name string `json:"name"`
	} `json:"tools"`
}

// anthropic serves POST /v1/messages as Claude Code calls it (with
// ?beta=true and stream:true).
func (s *Server) anthropic(w http.ResponseWriter, r *http.Request) {
	var req anthropicRequest
	offered, ok := s.decode(w, r, "a Messages API request", &req)
	if !ok {
		return
	}
	found := map[string]ToolResult{}
	for _, m := range req.Messages {
		var blocks []struct {
			Type      string          `json:"type"`
			ToolUseID string          `json:"tool_use_id"`
			Content   json.RawMessage `json:"content"`
			IsError   bool            `json:"is_error"`
		}
		if json.Unmarshal(m.Content, &blocks) != nil {
			continue // plain string content
		}
		for _, b := range blocks {
			if b.Type == "tool_result" {
				found[b.ToolUseID] = ToolResult{Text: textOf(b.Content), IsError: b.IsError}
			}
		}
	}
	t := s.next(offered, found, "toolu")
	s.logger.Debug("fakemodel: anthropic", "offered", offered, "call", t.Call)

	var block map[string]any
	stop := "end_turn"
	if t.Call >= 0 {
		block = map[string]any{"type": "tool_use", "id": callID("toolu", t.Call), "name": s.script.Tool, "input": s.script.Calls[t.Call]}
		stop = "tool_use"
	} else {
		block = map[string]any{"type": "text", "text": t.Text}
	}
	msg := map[string]any{"id": fmt.Sprintf("msg_fake_%d", len(s.Requests())), "type": "message", "role": "assistant",
		"model": "claude-fake", "content": []any{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]int{"input_tokens": 10, "output_tokens": 1}}
	said := t.Call >= 0 && s.script.Say != ""
	if !req.Stream {
		msg["content"] = []any{block}
		if said {
			msg["content"] = []any{map[string]any{"type": "text", "text": s.script.Say}, block}
		}
		msg["stop_reason"] = stop
		writeJSON(w, msg)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	sse(w, "message_start", map[string]any{"type": "message_start", "message": msg})
	index := 0
	if said {
		textBlock(w, index, s.script.Say)
		index++
	}
	if t.Call >= 0 {
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": index,
			"content_block": map[string]any{"type": "tool_use", "id": block["id"], "name": block["name"], "input": map[string]any{}}})
		// Two deltas, as a real model streams partial JSON.
		input := string(s.script.Calls[t.Call])
		half := len(input) / 2
		for _, part := range []string{input[:half], input[half:]} {
			sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": index,
				"delta": map[string]any{"type": "input_json_delta", "partial_json": part}})
		}
		sse(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": index})
	} else {
		textBlock(w, index, t.Text)
	}
	sse(w, "message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]int{"output_tokens": 5}})
	sse(w, "message_stop", map[string]any{"type": "message_stop"})
}

// textBlock streams one text content block at index.
func textBlock(w http.ResponseWriter, index int, text string) {
	sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": index,
		"content_block": map[string]any{"type": "text", "text": ""}})
	sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": index,
		"delta": map[string]any{"type": "text_delta", "text": text}})
	sse(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": index})
}

// sse writes one server-sent event and flushes it.
func sse(w http.ResponseWriter, event string, data any) {
	b, _ := json.Marshal(data)
	if event != "" {
		fmt.Fprintf(w, "event: %s\n", event)
	}
	fmt.Fprintf(w, "data: %s\n\n", b)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

func (q *anthropicRequest) toolNames() []string {
	var names []string
	for _, t := range q.Tools {
		names = append(names, t.Name)
	}
	return names
}
