package subagent

import (
	"encoding/json"

	"github.com/askbridge/askbridge/adapter/relay"
)

// A client that did not opt in to subagents (v1's
// clientCapabilities.subagents; every v2 client has them) knows no child
// session: a question asked under a child's sessionId would reach it as a
// stray, for a session it never opened. Such a client gets a child's
// questions under the session it knows, the child's topmost parent: both
// askbridge's own requests (the bridge's rewrite of them calls ToParent)
// and the agent's that go on to it (toParentHook). Other updates of the
// child are the agent's business.

// OptIn records whether the client takes subagent sessions.
func (s *Register) OptIn(v bool) {
	s.mu.Lock()
	s.clientOptedIn = v
	s.mu.Unlock()
}

// root is the topmost parent of a child session the client cannot know, or
// "" when the session is none, or the client knows children.
func (s *Register) root(session string, v2 bool) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if v2 || s.clientOptedIn {
		return ""
	}
	root := ""
	for range 16 {
		c, ok := s.children[session]
		if !ok {
			break
		}
		root, session = c.parent, c.parent
	}
	return root
}

// ToParent rewrites msg's params.sessionId to its root, nil when it
// keeps: on v2, or for a client that takes child sessions, it always
// keeps.
func (s *Register) ToParent(msg json.RawMessage, v2 bool) json.RawMessage {
	session, ok := relay.StringField(msg, "params", "sessionId")
	if !ok || session == "" {
		return nil
	}
	root := s.root(session, v2)
	if root == "" {
		return nil
	}
	var env map[string]json.RawMessage
	if json.Unmarshal(msg, &env) != nil {
		return nil
	}
	var params map[string]json.RawMessage
	if json.Unmarshal(env["params"], &params) != nil {
		return nil
	}
	params["sessionId"], _ = json.Marshal(root)
	env["params"], _ = json.Marshal(params)
	out, err := json.Marshal(env)
	if err != nil {
		return nil
	}
	return out
}

// toParentHook is ToParent for the agent's questions and approvals that
// go on to the client as they came.
func (s *Register) toParentHook(m *relay.Message) relay.Verdict {
	if out := s.ToParent(m.Raw, s.hooks.V2()); out != nil {
		return relay.Verdict{Replace: out}
	}
	return relay.Pass
}
