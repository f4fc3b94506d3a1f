// Package opencodetest is a fake of OpenCode's question routes, as seen
// with opencode 1.18.33, for the tests of the OpenCode dialect and of the
// bridge: one definition for both.
package opencodetest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// Question is OpenCode's tool call that carries its questions.
const Question = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"call_1","status":"in_progress","kind":"other","title":"question","locations":[],"rawInput":{"questions":[{"question":"Which database?","header":"Database","options":[{"label":"Postgres","description":"relational"},{"label":"SQLite","description":"embedded"}],"multiple":false},{"question":"Which languages?","header":"A header longer than twelve","options":[{"label":"Go","description":""},{"label":"Rust","description":""},{"label":"C","description":""}],"multiple":true}]}}}}`

// Server is OpenCode's question routes on a local port.
type Server struct {
	*httptest.Server
	mu      sync.Mutex
	pending []map[string]any
	posts   chan string // "ID VERB BODY"
}

// New serves the routes behind password until the test ends.
func New(t *testing.T, password string) *Server {
	f := &Server{posts: make(chan string, 10)}
	mux := http.NewServeMux()
	auth := func(h http.HandlerFunc) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			if u, p, ok := r.BasicAuth(); !ok || u != "opencode" || p != password {
				http.Error(w, "unauthorized", http.StatusUnauthorized)
				return
			}
			if r.URL.Query().Get("directory") != "/tmp/p" {
				w.Write([]byte("[]")) // OpenCode answers an unknown directory with nothing
				return
			}
			h(w, r)
		}
	}
	mux.HandleFunc("GET /question", auth(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		json.NewEncoder(w).Encode(f.pending)
	}))
	mux.HandleFunc("POST /question/{id}/{verb}", auth(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		f.posts <- r.PathValue("id") + " " + r.PathValue("verb") + " " + string(b)
		w.Write([]byte("true"))
	}))
	f.Server = httptest.NewServer(mux)
	t.Cleanup(f.Close)
	return f
}

// Ask makes a question pending for the tool call callID.
func (f *Server) Ask(callID string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pending = append(f.pending, map[string]any{"id": "que_1", "sessionID": "s1", "questions": []any{}, "tool": map[string]string{"messageID": "msg_1", "callID": callID}})
}

// Post is the next answer posted to the routes, failing after 5 s.
func (f *Server) Post(t *testing.T) string {
	t.Helper()
	select {
	case p := <-f.posts:
		return p
	case <-time.After(5 * time.Second):
		t.Fatal("nothing was posted to OpenCode")
		return ""
	}
}

// Posts are the answers posted to the routes, "ID VERB BODY" each, for a
// test that waits for one its own way.
func (f *Server) Posts() <-chan string { return f.posts }
