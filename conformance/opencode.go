package conformance

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
)

// OpenCode answers its question tool on its own HTTP server, so a fixture
// recorded with askbridge's OpenCode support (flags: --agent-kind=opencode)
// replays with a stand-in for that server: it lists each question the
// agent's script shows, and a reply or reject posted to it is what lets the
// agent's script go on — recorded among the agent's received lines as
// {"http":"POST /question/<id>/reply","body":…}.

// openCodeServer is the stand-in.
type openCodeServer struct {
	password string
	agent    *side
	srv      *http.Server
	URL      string

	mu        sync.Mutex
	questions []ocQuestion // pending, as GET /question lists them
	waits     map[string]string
}

// startOpenCode serves on ln and watches agent's script for questions.
func startOpenCode(ln net.Listener, password string, agent *side) *openCodeServer {
	o := &openCodeServer{password: password, agent: agent, URL: "http://" + ln.Addr().String(), waits: map[string]string{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /question", o.auth(func(w http.ResponseWriter, r *http.Request) {
		o.mu.Lock()
		defer o.mu.Unlock()
		list := o.questions
		if list == nil {
			list = []ocQuestion{}
		}
		json.NewEncoder(w).Encode(list)
	}))
	mux.HandleFunc("POST /question/{id}/{verb}", o.auth(o.answer))
	o.srv = &http.Server{Handler: mux}
	agent.watch = o.watch
	go o.srv.Serve(ln)
	return o
}

func (o *openCodeServer) close() { o.srv.Close() }

func (o *openCodeServer) auth(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if u, p, ok := r.BasicAuth(); !ok || u != "opencode" || p != o.password {
			http.Error(w, "Unauthorized", http.StatusUnauthorized)
			return
		}
		h(w, r)
	}
}

// watch registers a question the agent's script is about to show.
func (o *openCodeServer) watch(line []byte) string {
	var m struct {
		Params struct {
			SessionID string `json:"sessionId"`
			Update    struct {
				ToolCallID string          `json:"toolCallId"`
				Title      string          `json:"title"`
				Status     string          `json:"status"`
				RawInput   json.RawMessage `json:"rawInput"`
			} `json:"update"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &m) != nil || m.Params.Update.Title != "question" || m.Params.Update.Status != "in_progress" {
		return ""
	}
	var in struct {
		Questions json.RawMessage `json:"questions"`
	}
	if json.Unmarshal(m.Params.Update.RawInput, &in) != nil || in.Questions == nil {
		return ""
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	id := fmt.Sprintf("que_%d", len(o.waits)+1)
	o.questions = append(o.questions, ocQuestion{ID: id, SessionID: m.Params.SessionID, Questions: in.Questions,
		Tool: ocTool{MessageID: "msg_fixture", CallID: m.Params.Update.ToolCallID}})
	key := "opencode:" + id
	o.waits[id] = key
	return key
}

func (o *openCodeServer) answer(w http.ResponseWriter, r *http.Request) {
	id, verb := r.PathValue("id"), r.PathValue("verb")
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	o.mu.Lock()
	key, ok := o.waits[id]
	delete(o.waits, id)
	for i, q := range o.questions {
		if q.ID == id {
			o.questions = append(o.questions[:i], o.questions[i+1:]...)
			break
		}
	}
	o.mu.Unlock()
	if !ok || (verb != "reply" && verb != "reject") {
		http.NotFound(w, r)
		return
	}
	line, _ := json.Marshal(ocPost{HTTP: "POST /question/" + id + "/" + verb, Body: json.RawMessage(orNull(body))})
	o.agent.resolve(key, line)
	w.Write([]byte("true"))
}

func orNull(b []byte) []byte {
	if len(b) == 0 || !json.Valid(b) {
		return []byte("null")
	}
	return b
}

// ocQuestion is a pending question as OpenCode's GET /question lists it.
type ocQuestion struct {
	ID        string          `json:"id"`
	SessionID string          `json:"sessionID"`
	Questions json.RawMessage `json:"questions"`
	Tool      ocTool          `json:"tool"`
}

type ocTool struct {
	MessageID string `json:"messageID"`
	CallID    string `json:"callID"`
}

// ocPost is how a fixture's agent side records the reply or reject askbridge
// posted.
type ocPost struct {
	HTTP string          `json:"http"`
	Body json.RawMessage `json:"body"`
}
