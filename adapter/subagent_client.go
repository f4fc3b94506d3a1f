package adapter

import (
	"encoding/json"

	"github.com/askbridge/askbridge/adapter/acpv2"
	"github.com/askbridge/askbridge/adapter/relay"
)

// A client that did not opt in to subagents (v1's
// clientCapabilities.subagents; every v2 client has them) knows no child
// session: a question asked under a child's sessionId would reach it as a
// stray, for a session it never opened. Such a client gets a child's
// questions under the session it knows, the child's topmost parent: both
// askbridge's own requests (ownRewrite) and the agent's that go on to it
// (toParentHook). Other updates of the child are the agent's business.

// optIn records whether the client takes subagent sessions.
func (s *subagents) optIn(v bool) {
	s.mu.Lock()
	s.clientOptedIn = v
	s.mu.Unlock()
}

// root is the topmost parent of a child session the client cannot know, or
// "" when the session is none, or the client knows children.
func (b *Bridge) root(session string, v2 bool) string {
	b.subs.mu.Lock()
	defer b.subs.mu.Unlock()
	if v2 || b.subs.clientOptedIn {
		return ""
	}
	root := ""
	for range 16 {
		s, ok := b.subs.children[session]
		if !ok {
			break
		}
		root, session = s.parent, s.parent
	}
	return root
}

// toParent rewrites msg's params.sessionId to its root, nil when it keeps.
func (b *Bridge) toParent(msg json.RawMessage, v2 bool) json.RawMessage {
	session, ok := relay.StringField(msg, "params", "sessionId")
	if !ok || session == "" {
		return nil
	}
	root := b.root(session, v2)
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

// ownRewrite is what askbridge's own requests and notifications to the
// client go through once initialize is answered: a child's session named
// as its root for a client without subagents, then v2's shapes on v2.
func (b *Bridge) ownRewrite(msg json.RawMessage) json.RawMessage {
	v2 := b.proto.V2()
	out := b.toParent(msg, v2)
	if v2 {
		src := msg
		if out != nil {
			src = out
		}
		if r := acpv2.Own(src); r != nil {
			out = r
		}
	}
	return out
}

// toParentHook is the same for the agent's questions and approvals that
// go on to the client as they came.
func (b *Bridge) toParentHook(m *relay.Message) relay.Verdict {
	if out := b.toParent(m.Raw, b.proto.V2()); out != nil {
		return relay.Verdict{Replace: out}
	}
	return relay.Pass
}
