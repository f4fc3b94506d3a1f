package fakemodel

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// Script says what the model does.
type Script struct {
	// Tool is the name of the question tool to call: AskUserQuestion
	// (Claude), ask_user_question (Qwen, and an MCP server's tool, which Gemini
	// CLI offers as mcp_<server>_ask_user_question), question (OpenCode),
	// request_user_input (Codex). The model calls
	// it only when a request's tools offer it, so side requests (titles,
	// summaries) and agents that hide the tool get text.
	Tool string
	// Calls are the inputs of the successive calls of Tool, each a JSON
	// object. The model makes call n+1 once the result of call n is in the
	// conversation; after the last result it replies in text quoting every
	// result.
	Calls []json.RawMessage
	// Say, when set, is text the model writes before each call, in the
	// same message, as a model explains why it asks (Anthropic's API only).
	Say string
}

// Request is one HTTP request the model was sent.
type Request struct {
	Time    time.Time
	Method  string
	Path    string // with the query, as sent
	Body    []byte
	Offered bool // the request's tools offered Script.Tool
}

// ToolResult is the result of one of the model's tool calls, as the agent
// sent it back.
type ToolResult struct {
	ID      string // the call's id
	Call    int    // index into Script.Calls
	Text    string // the content flattened to text
	IsError bool   // Anthropic's is_error
}

// Server is a running fake model.
type Server struct {
	// URL is the base URL, http://127.0.0.1:PORT, without a path: Claude
	// takes it as ANTHROPIC_BASE_URL; OpenAI clients want URL+"/v1".
	URL string

	script Script
	srv    *http.Server
	logger *slog.Logger

	mu       sync.Mutex
	requests []Request
	results  []ToolResult
	seen     map[string]bool
}

// Start serves script on a free loopback port until Close. A nil logger
// discards.
func Start(script Script, logger *slog.Logger) (*Server, error) {
	for i, c := range script.Calls {
		var obj map[string]any
		if err := json.Unmarshal(c, &obj); err != nil {
			return nil, fmt.Errorf("fakemodel: Script.Calls[%d] is not a JSON object: %v", i, err)
		}
	}
	if len(script.Calls) > 0 && script.Tool == "" {
		return nil, fmt.Errorf("fakemodel: Script.Calls given without Script.Tool")
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Server{URL: "http://" + ln.Addr().String(), script: script, logger: logger, seen: map[string]bool{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/messages", s.anthropic)
	mux.HandleFunc("POST /v1/messages/count_tokens", func(w http.ResponseWriter, r *http.Request) {
		s.record(r, nil, false)
		writeJSON(w, map[string]int{"input_tokens": 42})
	})
	mux.HandleFunc("POST /v1/chat/completions", s.openai)
	mux.HandleFunc("POST /chat/completions", s.openai)
	mux.HandleFunc("POST /v1/responses", s.responses)
	mux.HandleFunc("GET /v1/models", s.models)
	mux.HandleFunc("POST /v1beta/models/{call}", s.gemini) // MODEL:generateContent and kin
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.record(r, body, false)
		s.logger.Warn("fakemodel: unhandled request", "method", r.Method, "path", r.URL.Path)
		http.NotFound(w, r)
	})
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go s.srv.Serve(ln)
	return s, nil
}

// Close stops the server.
func (s *Server) Close() { s.srv.Close() }

// Requests returns every request received so far, in arrival order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Results returns the results of the question tool calls, in the order
// they first appeared in a request.
func (s *Server) Results() []ToolResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]ToolResult(nil), s.results...)
}

// ToolResults returns the text of Results.
func (s *Server) ToolResults() []string {
	var out []string
	for _, r := range s.Results() {
		out = append(out, r.Text)
	}
	return out
}

// Offered reports whether any request offered the question tool.
func (s *Server) Offered() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.requests {
		if r.Offered {
			return true
		}
	}
	return false
}

func (s *Server) record(r *http.Request, body []byte, offered bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, Request{Time: time.Now(), Method: r.Method, Path: r.URL.RequestURI(), Body: body, Offered: offered})
}

// models answers the model list some OpenAI clients fetch first.
func (s *Server) models(w http.ResponseWriter, r *http.Request) {
	s.record(r, nil, false)
	writeJSON(w, map[string]any{"object": "list", "data": []any{map[string]any{"id": "fake-model", "object": "model", "owned_by": "fakemodel"}}})
}

// request is a model API request that lists the tools it offers.
type request interface{ toolNames() []string }

// decode reads a request of the kind api names into req and records it,
// with whether it offers the script's question tool. It answers 400 and
// returns false when the body is not such a request.
func (s *Server) decode(w http.ResponseWriter, r *http.Request, api string, req request) (offered, ok bool) {
	body, err := readBody(r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return false, false
	}
	if err := json.Unmarshal(body, req); err != nil {
		s.record(r, body, false)
		http.Error(w, "fakemodel: the body is not "+api+": "+err.Error(), http.StatusBadRequest)
		return false, false
	}
	offered = slices.ContainsFunc(req.toolNames(), s.isQuestionTool)
	s.record(r, body, offered)
	return offered, true
}

func readBody(r *http.Request) ([]byte, error) {
	b, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, fmt.Errorf("reading the request body: %v", err)
	}
	return b, nil
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// textOf flattens tool result content: a string, or content blocks.
func textOf(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &blocks) == nil {
		var parts []string
		for _, b := range blocks {
			if b.Text != "" {
				parts = append(parts, b.Text)
			}
		}
		return strings.Join(parts, "\n")
	}
	return string(raw)
}
