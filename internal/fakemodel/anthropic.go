package fakemodel

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// anthropic serves POST /v1/messages, as Claude Code calls it.
func (s *Server) anthropic(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Stream   bool `json:"stream"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := readBody(r, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	offered := false
	for _, t := range req.Tools {
		offered = offered || t.Name == s.script.Tool
	}
	results := map[string]string{}
	for _, m := range req.Messages {
		var blocks []struct {
			Type      string          `json:"type"`
			ToolUseID string          `json:"tool_use_id"`
			Content   json.RawMessage `json:"content"`
		}
		if json.Unmarshal(m.Content, &blocks) != nil {
			continue
		}
		for _, b := range blocks {
			if b.Type == "tool_result" {
				results[b.ToolUseID] = textOf(b.Content)
			}
		}
	}
	answered := 0
	for {
		if _, ok := results[callID("toolu", answered)]; !ok {
			break
		}
		answered++
	}
	n := s.decide(offered, answered, results, "toolu")
	s.logger.Debug("fakemodel: anthropic request", "offered", offered, "answered", answered, "call", n)

	msg := map[string]any{"id": fmt.Sprintf("msg_%d", answered), "type": "message", "role": "assistant", "model": "claude-fake",
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": map[string]int{"input_tokens": 10, "output_tokens": 1}}
	var block map[string]any
	stop := "end_turn"
	if n >= 0 {
		block = map[string]any{"type": "tool_use", "id": callID("toolu", n), "name": s.script.Tool, "input": s.script.Calls[n]}
		stop = "tool_use"
	} else {
		block = map[string]any{"type": "text", "text": s.finalText()}
	}
	if !req.Stream {
		msg["content"] = []any{block}
		msg["stop_reason"] = stop
		writeJSON(w, msg)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	sse(w, "message_start", map[string]any{"type": "message_start", "message": msg})
	if n >= 0 {
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "tool_use", "id": block["id"], "name": block["name"], "input": map[string]any{}}})
		sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": string(s.script.Calls[n])}})
	} else {
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
		sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": block["text"]}})
	}
	sse(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	sse(w, "message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]int{"output_tokens": 5}})
	sse(w, "message_stop", map[string]any{"type": "message_stop"})
}
