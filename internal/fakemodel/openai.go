package fakemodel

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// openai serves chat completions, as Qwen Code and OpenCode call them.
func (s *Server) openai(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model    string `json:"model"`
		Stream   bool   `json:"stream"`
		Messages []struct {
			Role       string          `json:"role"`
			ToolCallID string          `json:"tool_call_id"`
			Content    json.RawMessage `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := readBody(r, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	offered := false
	for _, t := range req.Tools {
		offered = offered || t.Function.Name == s.script.Tool
	}
	results := map[string]string{}
	for _, m := range req.Messages {
		if m.Role == "tool" {
			results[m.ToolCallID] = textOf(m.Content)
		}
	}
	answered := 0
	for {
		if _, ok := results[callID("call", answered)]; !ok {
			break
		}
		answered++
	}
	n := s.decide(offered, answered, results, "call")
	s.logger.Debug("fakemodel: openai request", "offered", offered, "answered", answered, "call", n)

	id := fmt.Sprintf("chatcmpl-%d", answered)
	model := req.Model
	if model == "" {
		model = "fake"
	}
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": id, "object": "chat.completion.chunk", "created": 1700000000, "model": model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	var message map[string]any
	finish := "stop"
	if n >= 0 {
		finish = "tool_calls"
		message = map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
			"index": 0, "id": callID("call", n), "type": "function",
			"function": map[string]any{"name": s.script.Tool, "arguments": string(s.script.Calls[n])}}}}
	} else {
		message = map[string]any{"role": "assistant", "content": s.finalText()}
	}
	usage := map[string]int{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
	if !req.Stream {
		writeJSON(w, map[string]any{"id": id, "object": "chat.completion", "created": 1700000000, "model": model,
			"choices": []any{map[string]any{"index": 0, "message": message, "finish_reason": finish}}, "usage": usage})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	sse(w, "", chunk(message, nil))
	end := chunk(map[string]any{}, finish)
	end["usage"] = usage
	sse(w, "", end)
	fmt.Fprint(w, "data: [DONE]\n\n")
}
