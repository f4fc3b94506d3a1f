package adapter

import (
	"encoding/json"
	"errors"
	"sync"

	"github.com/askbridge/askbridge/adapter/relay"
)

// Subagent sessions: a parent session's agent announces a child session
// with a subagent_update (ACP's session update carrying the child's
// sessionId, its title, its working folder), and the child's questions and
// approvals then arrive on the child's sessionId, which no session/new
// ever named. The bridge registers the child from the announcement, so a
// question of it can say whose it is, in which folder, and so that ending
// the parent's work (session/cancel, session/close) withdraws the child's
// pending sets too.

// subagent is what the parent said of one child.
type subagent struct {
	parent string
	title  string // the parent's display title for it (the task)
	cwd    string // its folder; the parent's while it names none
}

// subagents is the bridge's register of child sessions.
type subagents struct {
	mu            sync.Mutex
	children      map[string]subagent // child session -> what its parent said
	clientOptedIn bool                // the client takes child sessions (subagent_client.go)
}

// subagentUpdate is the part of a session/update the register reads.
type subagentUpdate struct {
	SessionID string `json:"sessionId"` // the parent
	Update    struct {
		SessionUpdate string           `json:"sessionUpdate"`
		SessionID     string           `json:"sessionId"` // the child
		Title         *json.RawMessage `json:"title"`
		Cwd           *json.RawMessage `json:"cwd"`
	} `json:"update"`
}

// installSubagents watches the agent's updates for subagent_update, and
// the client's session/cancel and session/close for parents.
func (b *Bridge) installSubagents() {
	b.relay.FromAgentUpdates(b.onSubagentUpdate, "subagent_update")
	b.relay.FromClient("session/cancel", b.onParentEnds)
	b.relay.FromClient("session/close", b.onParentEnds)
	for _, method := range []string{"session/request_permission", "elicitation/create"} {
		b.relay.FromAgent(method, b.toParentHook)
	}
}

// IsSubagentUpdate is a session/update's prefilter for subagent_update:
// the message chunks that stream past it are passed over by their kind,
// not decoded.
func IsSubagentUpdate(m *relay.Message) bool { return m.IsUpdate("subagent_update") }

func (b *Bridge) onSubagentUpdate(m *relay.Message) relay.Verdict {
	if !IsSubagentUpdate(m) { // most updates are not: no decoding
		return relay.Pass
	}
	var p subagentUpdate
	if m.Params(&p) != nil || p.Update.SessionUpdate != "subagent_update" || p.Update.SessionID == "" || p.SessionID == "" {
		return relay.Pass
	}
	child := p.Update.SessionID
	b.subs.mu.Lock()
	if b.subs.children == nil {
		b.subs.children = map[string]subagent{}
	}
	s, known := b.subs.children[child]
	s.parent = p.SessionID
	s.title = patchString(s.title, p.Update.Title)
	s.cwd = patchString(s.cwd, p.Update.Cwd)
	b.subs.children[child] = s
	b.subs.mu.Unlock()
	if !known {
		b.logger.Info("subagent session", "session", child, "parent", p.SessionID, "task", s.title)
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
// whose work the client cancels or ends; the parent's own sets are the
// bridge's session/cancel's (bridge.go).
func (b *Bridge) onParentEnds(m *relay.Message) relay.Verdict {
	var p sessionRef
	if m.Params(&p) != nil || p.SessionID == "" {
		return relay.Pass
	}
	cause := errors.New(m.Method + " of the parent session")
	for _, child := range b.descendants(p.SessionID) {
		b.cancelSession(child, cause)
	}
	if m.Method == "session/close" {
		b.cancelSession(p.SessionID, errors.New("session/close"))
	}
	return relay.Pass
}

// descendants are the subagents of session, theirs too, in no order.
func (b *Bridge) descendants(session string) []string {
	b.subs.mu.Lock()
	defer b.subs.mu.Unlock()
	var out []string
	seen := map[string]bool{session: true}
	for queue := []string{session}; len(queue) > 0; queue = queue[1:] {
		for child, s := range b.subs.children {
			if s.parent == queue[0] && !seen[child] {
				seen[child] = true
				out = append(out, child)
				queue = append(queue, child)
			}
		}
	}
	return out
}

// Subagent says whose subagent a session is: "subagent of <task> in
// <folder>", the task being the parent's title for it (else the parent's
// session id) and the folder its own, else its parent's; "" for a session
// no subagent_update announced.
func (b *Bridge) Subagent(session string) string {
	b.subs.mu.Lock()
	s, ok := b.subs.children[session]
	b.subs.mu.Unlock()
	if !ok {
		return ""
	}
	task := s.title
	if task == "" {
		task = s.parent
	}
	cwd := b.subagentCwd(session)
	if cwd == "" {
		return "subagent of " + task
	}
	return "subagent of " + task + " in " + cwd
}

// subagentCwd is a subagent's folder: its own, else its parent's, up the
// chain (a bounded walk: a chain the agent made circular ends).
func (b *Bridge) subagentCwd(session string) string {
	for range 16 {
		b.subs.mu.Lock()
		s, ok := b.subs.children[session]
		b.subs.mu.Unlock()
		if !ok {
			return b.SessionCwd(session)
		}
		if s.cwd != "" {
			return s.cwd
		}
		session = s.parent
	}
	return ""
}
