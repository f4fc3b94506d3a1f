package fakemodel

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// openaiRequest is the part of a chat completions request the script reads.
type openaiRequest struct {
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

// openai serves chat completions as Qwen Code and OpenCode call them.
func (s *Server) openai(w http.ResponseWriter, r *http.Request) {
	var req openaiRequest
	offered, ok := s.decode(w, r, "a chat completions request", &req)
	if !ok {
		return
	}
	found := map[string]ToolResult{}
	for _, m := range req.Messages {
		if m.Role == "tool" {
			found[m.ToolCallID] = ToolResult{Text: textOf(m.Content)}
		}
	}
	tool := s.script.Tool
	for _, name := range req.toolNames() {
		if s.isQuestionTool(name) {
			tool = name // the name the agent offers it under
		}
	}
	t := s.next(offered, found, "call")
	s.logger.Debug("fakemodel: openai", "offered", offered, "call", t.Call)

	id := fmt.Sprintf("chatcmpl-fake-%d", len(s.Requests()))
	model := req.Model
	if model == "" {
		model = "fake-model"
	}
	var message map[string]any
	finish := "stop"
	if t.Call >= 0 {
		finish = "tool_calls"
		message = map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
			"index": 0, "id": callID("call", t.Call), "type": "function",
			"function": map[string]any{"name": tool, "arguments": string(s.script.Calls[t.Call])}}}}
	} else {
		message = map[string]any{"role": "assistant", "content": t.Text}
	}
	usage := map[string]int{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
	if !req.Stream {
		writeJSON(w, map[string]any{"id": id, "object": "chat.completion", "created": 1700000000, "model": model,
			"choices": []any{map[string]any{"index": 0, "message": message, "finish_reason": finish}}, "usage": usage})
		return
	}
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": id, "object": "chat.completion.chunk", "created": 1700000000, "model": model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	w.Header().Set("Content-Type", "text/event-stream")
	if t.Call >= 0 {
		// The first delta names the call, the next ones stream its arguments,
		// as OpenAI does.
		args := string(s.script.Calls[t.Call])
		half := len(args) / 2
		sse(w, "", chunk(map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
			"index": 0, "id": callID("call", t.Call), "type": "function",
			"function": map[string]any{"name": tool, "arguments": ""}}}}, nil))
		for _, part := range []string{args[:half], args[half:]} {
			sse(w, "", chunk(map[string]any{"tool_calls": []any{map[string]any{
				"index": 0, "function": map[string]any{"arguments": part}}}}, nil))
		}
	} else {
		sse(w, "", chunk(map[string]any{"role": "assistant", "content": t.Text}, nil))
	}
	end := chunk(map[string]any{}, finish)
	end["usage"] = usage
	sse(w, "", end)
	fmt.Fprint(w, "data: [DONE]\n\n")
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

func (q *openaiRequest) toolNames() []string {
	var names []string
	for _, t := range q.Tools {
		names = append(names, t.Function.Name)
	}
	return names
}
