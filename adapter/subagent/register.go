package subagent

import (
	"encoding/json"
	"errors"
	"log/slog"
	"sync"

	"github.com/askbridge/askbridge/adapter/relay"
)

// child is what the parent said of one child.
type child struct {
	parent string
	title  string // the parent's display title for it (the task)
	cwd    string // its folder; the parent's while it names none
}

// Register is the bridge's register of child sessions. The zero value
// knows none until Follow.
type Register struct {
	mu            sync.Mutex
	children      map[string]child // child session -> what its parent said
	clientOptedIn bool             // the client takes child sessions (client.go)
	hooks         Hooks
}

// Hooks are what the register asks of whoever follows the relay with it.
type Hooks struct {
	// Cancel withdraws the pending sets of a session.
	Cancel func(session string, cause error)
	// V2 reports whether the connection speaks ACP v2, whose clients all
	// take child sessions.
	V2     func() bool
	Logger *slog.Logger
}

// update is the part of a session/update the register reads.
type update struct {
	SessionID string `json:"sessionId"` // the parent
	Update    struct {
		SessionUpdate string           `json:"sessionUpdate"`
		SessionID     string           `json:"sessionId"` // the child
		Title         *json.RawMessage `json:"title"`
		Cwd           *json.RawMessage `json:"cwd"`
	} `json:"update"`
}

// Follow watches r's agent updates for subagent_update, and the client's
// session/cancel and session/close for parents.
func (s *Register) Follow(r *relay.Relay, h Hooks) {
	if h.Logger == nil {
		h.Logger = slog.New(slog.DiscardHandler)
	}
	s.hooks = h
	r.FromAgentUpdates(s.onUpdate, "subagent_update")
	r.FromClient("session/cancel", s.onParentEnds)
	r.FromClient("session/close", s.onParentEnds)
	for _, method := range []string{"session/request_permission", "elicitation/create"} {
		r.FromAgent(method, s.toParentHook)
	}
}

// IsUpdate is a session/update's prefilter for subagent_update: the
// message chunks that stream past it are passed over by their kind, not
// decoded.
func IsUpdate(m *relay.Message) bool { return m.IsUpdate("subagent_update") }

func (s *Register) onUpdate(m *relay.Message) relay.Verdict {
	if !IsUpdate(m) { // most updates are not: no decoding
		return relay.Pass
	}
	var p update
	if m.Params(&p) != nil || p.Update.SessionUpdate != "subagent_update" || p.Update.SessionID == "" || p.SessionID == "" {
		return relay.Pass
	}
	id := p.Update.SessionID
	s.mu.Lock()
	if s.children == nil {
		s.children = map[string]child{}
	}
	c, known := s.children[id]
	c.parent = p.SessionID
	c.title = patchString(c.title, p.Update.Title)
	c.cwd = patchString(c.cwd, p.Update.Cwd)
	s.children[id] = c
	s.mu.Unlock()
	if !known {
		s.hooks.Logger.Info("subagent session", "session", id, "parent", p.SessionID, "task", c.title)
	}
	return relay.Pass
}

// patchString applies ACP's update rule to one field: omitted keeps it,
// null clears it, a string replaces it.
func patchString(cur string, v *json.RawMessage) string {
	if v == nil {
		return cur
	}
	var s string
	if json.Unmarshal(*v, &s) != nil {
		return ""
	}
	return s
}

// onParentEnds withdraws the pending sets of every subagent of a session
// whose work the client cancels or ends, and of a session closed; the
// parent's own sets on session/cancel are the bridge's.
func (s *Register) onParentEnds(m *relay.Message) relay.Verdict {
	var p struct {
		SessionID string `json:"sessionId"`
	}
	if m.Params(&p) != nil || p.SessionID == "" {
		return relay.Pass
	}
	cause := errors.New(m.Method + " of the parent session")
	for _, c := range s.Descendants(p.SessionID) {
		s.hooks.Cancel(c, cause)
	}
	if m.Method == "session/close" {
		s.hooks.Cancel(p.SessionID, errors.New("session/close"))
	}
	return relay.Pass
}

// Descendants are the subagents of session, theirs too, in no order.
func (s *Register) Descendants(session string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	seen := map[string]bool{session: true}
	for queue := []string{session}; len(queue) > 0; queue = queue[1:] {
		for id, c := range s.children {
			if c.parent == queue[0] && !seen[id] {
				seen[id] = true
				out = append(out, id)
				queue = append(queue, id)
			}
		}
	}
	return out
}

// Describe says whose subagent a session is: "subagent of <task> in
// <folder>", the task being the parent's title for it (else the parent's
// session id) and the folder its own, else its parent's, up to a session
// no subagent_update announced, whose folder cwd gives; "" for a session
// no subagent_update announced.
func (s *Register) Describe(session string, cwd func(session string) string) string {
	s.mu.Lock()
	c, ok := s.children[session]
	s.mu.Unlock()
	if !ok {
		return ""
	}
	task := c.title
	if task == "" {
		task = c.parent
	}
	folder := s.folder(session, cwd)
	if folder == "" {
		return "subagent of " + task
	}
	return "subagent of " + task + " in " + folder
}

// folder is a subagent's folder: its own, else its parent's, up the chain
// (a bounded walk: a chain the agent made circular ends).
func (s *Register) folder(session string, cwd func(string) string) string {
	for range 16 {
		s.mu.Lock()
		c, ok := s.children[session]
		s.mu.Unlock()
		if !ok {
			return cwd(session)
		}
		if c.cwd != "" {
			return c.cwd
		}
		session = c.parent
	}
	return ""
}
