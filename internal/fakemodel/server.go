package fakemodel

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
)

// Script says what the model does.
type Script struct {
	// Tool is the name of the question tool to call: AskUserQuestion
	// (Claude), ask_user_question (Qwen), question (OpenCode). The model only
	// calls it when the request offers it.
	Tool string
	// Calls are the inputs of the successive calls of Tool. After the result
	// of the last one, the model answers in text quoting the results.
	Calls []json.RawMessage
}

// Server is a running fake model.
type Server struct {
	URL    string
	script Script
	srv    *http.Server
	logger *slog.Logger

	mu       sync.Mutex
	results  []string // tool results for our calls, in arrival order
	seenIDs  map[string]bool
	requests int
	offered  []bool // per model request: whether Tool was offered
}

// Start serves script on a free loopback port.
func Start(script Script, logger *slog.Logger) (*Server, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Server{URL: "http://" + ln.Addr().String(), script: script, logger: logger, seenIDs: map[string]bool{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/messages", s.anthropic)
	mux.HandleFunc("POST /v1/messages/count_tokens", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]int{"input_tokens": 42})
	})
	mux.HandleFunc("POST /v1/chat/completions", s.openai)
	mux.HandleFunc("POST /chat/completions", s.openai)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.logger.Debug("fakemodel: unhandled", "method", r.Method, "path", r.URL.Path)
		http.NotFound(w, r)
	})
	s.srv = &http.Server{Handler: mux}
	go s.srv.Serve(ln)
	return s, nil
}

// Close stops the server.
func (s *Server) Close() { s.srv.Close() }

// ToolResults are the results of the question tool calls the agent sent
// back, as text, in order.
func (s *Server) ToolResults() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.results...)
}

// Offered reports whether any model request offered the question tool.
func (s *Server) Offered() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, o := range s.offered {
		if o {
			return true
		}
	}
	return false
}

// callID is the id of our n-th tool call.
func callID(prefix string, n int) string { return fmt.Sprintf("%s_askbridge_%d", prefix, n) }

// decide looks at the conversation: answered is how many of our calls have
// results in it. It returns the index of the call to make, or -1 for text.
func (s *Server) decide(offered bool, answered int, results map[string]string, prefix string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests++
	s.offered = append(s.offered, offered)
	for n := range answered {
		id := callID(prefix, n)
		if r, ok := results[id]; ok && !s.seenIDs[id] {
			s.seenIDs[id] = true
			s.results = append(s.results, r)
		}
	}
	if !offered || answered >= len(s.script.Calls) {
		return -1
	}
	return answered
}

// finalText is the model's closing reply: it quotes every tool result.
func (s *Server) finalText() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.results) == 0 {
		return "OK."
	}
	return "Thanks. The tool said: " + strings.Join(s.results, " | ")
}

func readBody(r *http.Request, v any) error {
	b, err := io.ReadAll(r.Body)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
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

// textOf flattens a tool result's content (a string, or content blocks).
func textOf(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
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
