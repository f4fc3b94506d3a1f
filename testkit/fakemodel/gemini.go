package fakemodel

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// geminiRequest is the part of a generateContent request the script reads.
type geminiRequest struct {
	Contents []struct {
		Role  string       `json:"role"`
		Parts []geminiPart `json:"parts"`
	} `json:"contents"`
	GenerationConfig struct {
		ResponseJSONSchema *jsonSchema `json:"responseJsonSchema"`
	} `json:"generationConfig"`
	Tools []struct {
		FunctionDeclarations []struct {
			Name string `json:"name"`
		} `json:"functionDeclarations"`
	} `json:"tools"`
}

type geminiPart struct {
	Text             string `json:"text,omitempty"`
	FunctionResponse *struct {
		ID       string `json:"id"`
		Name     string `json:"name"`
		Response struct {
			Output json.RawMessage `json:"output"`
			Error  json.RawMessage `json:"error"`
		} `json:"response"`
	} `json:"functionResponse,omitempty"`
}

// routing answers a one-shot request that names no schema: Gemini CLI's
// model router reads it as a simple prompt, which keeps the model it would
// use anyway.
const routing = `{"complexity_score":10,"reasoning":"A simple request; the fake model takes it."}`

// gemini serves POST /v1beta/models/MODEL:generateContent and
// MODEL:streamGenerateContent as Gemini CLI calls them. The one-shot
// generateContent is the CLI's router (and its other side requests, which
// read JSON or text); the streamed calls are the conversation.
func (s *Server) gemini(w http.ResponseWriter, r *http.Request) {
	model, method, ok := strings.Cut(r.PathValue("call"), ":")
	body, err := readBody(r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if !ok || (method != "generateContent" && method != "streamGenerateContent" && method != "countTokens") {
		s.record(r, body, false)
		geminiError(w, http.StatusNotFound, fmt.Sprintf("fakemodel: no Gemini method %q on model %q", method, model))
		return
	}
	var req geminiRequest
	if err := json.Unmarshal(body, &req); err != nil {
		s.record(r, body, false)
		geminiError(w, http.StatusBadRequest, "fakemodel: the body is not a generateContent request: "+err.Error())
		return
	}
	if method == "countTokens" {
		s.record(r, body, false)
		writeJSON(w, map[string]int{"totalTokens": 42})
		return
	}
	tool := ""
	for _, t := range req.Tools {
		for _, d := range t.FunctionDeclarations {
			if s.isQuestionTool(d.Name) {
				tool = d.Name
			}
		}
	}
	s.record(r, body, tool != "")
	t := s.next(tool != "", geminiResults(req, s.isQuestionTool), "gemini")
	s.logger.Debug("fakemodel: gemini", "model", model, "method", method, "offered", tool, "call", t.Call)

	var part map[string]any
	switch {
	case t.Call >= 0:
		part = map[string]any{"functionCall": map[string]any{"id": callID("gemini", t.Call), "name": tool, "args": s.script.Calls[t.Call]}}
	case method == "generateContent" && req.GenerationConfig.ResponseJSONSchema != nil:
		// The router and the CLI's other checks ask for JSON of a schema and
		// retry until they get it.
		b, _ := json.Marshal(req.GenerationConfig.ResponseJSONSchema.example())
		part = map[string]any{"text": string(b)}
	case method == "generateContent":
		part = map[string]any{"text": routing}
	default:
		part = map[string]any{"text": t.Text}
	}
	chunk := func(parts []any, finish string) map[string]any {
		c := map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "index": 0}
		if finish != "" {
			c["finishReason"] = finish
		}
		return map[string]any{"candidates": []any{c}, "modelVersion": model,
			"usageMetadata": map[string]int{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}}
	}
	if method == "generateContent" {
		writeJSON(w, chunk([]any{part}, "STOP"))
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	if text, ok := part["text"].(string); ok {
		// Text in two chunks, as a real model streams it.
		half := len(text) / 2
		sse(w, "", chunk([]any{map[string]any{"text": text[:half]}}, ""))
		sse(w, "", chunk([]any{map[string]any{"text": text[half:]}}, "STOP"))
		return
	}
	sse(w, "", chunk([]any{part}, "STOP"))
}

// isQuestionTool says whether a declared function is the script's tool:
// its name, or an MCP server's tool of that name, which Gemini CLI offers as
// mcp_<server>_<tool> and Copilot CLI as <server>-<tool>.
func (s *Server) isQuestionTool(name string) bool {
	return s.script.Tool != "" && (name == s.script.Tool || strings.HasSuffix(name, "_"+s.script.Tool) || strings.HasSuffix(name, "-"+s.script.Tool))
}

// geminiResults finds the question tool's results in the conversation, keyed
// by the ids of the calls the script made. Gemini CLI sends a call's id back
// in its functionResponse; a response without an id counts as the next call
// in order.
func geminiResults(req geminiRequest, isTool func(string) bool) map[string]ToolResult {
	found := map[string]ToolResult{}
	n := 0
	for _, c := range req.Contents {
		for _, p := range c.Parts {
			fr := p.FunctionResponse
			if fr == nil || !isTool(fr.Name) {
				continue
			}
			id := fr.ID
			if id == "" {
				id = callID("gemini", n)
			}
			n++
			res := ToolResult{Text: textOf(fr.Response.Output)}
			if len(fr.Response.Error) > 0 {
				res = ToolResult{Text: textOf(fr.Response.Error), IsError: true}
			}
			found[id] = res
		}
	}
	return found
}

// geminiError answers as the Gemini API does, so the CLI shows the message.
func geminiError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"code": code, "message": msg, "status": http.StatusText(code)}})
}

// jsonSchema is the part of a response schema example reads. Gemini's
// types are upper case (OBJECT), JSON Schema's lower case.
type jsonSchema struct {
	Type       string                 `json:"type"`
	Enum       []json.RawMessage      `json:"enum"`
	Properties map[string]*jsonSchema `json:"properties"`
	Items      *jsonSchema            `json:"items"`
}

// example is a value of the schema: an enum's first value, 10 for a number
// (a low complexity score for the router), a short text for a string.
func (s *jsonSchema) example() any {
	if len(s.Enum) > 0 {
		return s.Enum[0]
	}
	switch strings.ToLower(s.Type) {
	case "object":
		obj := map[string]any{}
		for name, p := range s.Properties {
			obj[name] = p.example()
		}
		return obj
	case "array":
		if s.Items == nil {
			return []any{}
		}
		return []any{s.Items.example()}
	case "integer", "number":
		return 10
	case "boolean":
		return false
	default:
		return "The fake model's answer."
	}
}
