package uncontained

import (
	"bytes"
	"encoding/json"
	"strings"

	acp "github.com/coder/acp-go-sdk"

	"github.com/askbridge/askbridge/adapter/relay"
)

// uncontainedMark ends every allowing option's name.
const uncontainedMark = " (agent not contained)"

// Mark marks, with warning, the agent's permission requests that reach
// the editor on r; install it after the dialects, so a request a dialect
// takes (a question it asks itself) is not marked.
func Mark(r *relay.Relay, warning string) {
	rewrite := relay.RewriteParams(func(params json.RawMessage) (json.RawMessage, error) {
		return markUncontained(params, warning)
	})
	r.FromAgent(acp.ClientMethodSessionRequestPermission, func(m *relay.Message) relay.Verdict {
		if bytes.Contains(m.Raw, questionsMark) {
			return relay.Pass // a question asked as a permission request (Qwen's): not an approval
		}
		return rewrite(m)
	})
}

// questionsMark is in a question asked as a permission request (Qwen's
// rawInput.questions, _meta.qwenQuestions).
var questionsMark = []byte(`uestions"`)

// markUncontained rewrites the request's params: v1's toolCall.title or
// v2's title gets the warning in front, every allow_* option's name the
// mark; every other field stays as the agent sent it.
func markUncontained(params json.RawMessage, warning string) (json.RawMessage, error) {
	var p map[string]json.RawMessage
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, err
	}
	prefix := "⚠ " + warning + " — "
	if raw, ok := p["toolCall"]; ok {
		if out, ok := prefixTitle(raw, prefix); ok {
			p["toolCall"] = out
		}
	}
	if raw, ok := p["title"]; ok {
		var t string
		if json.Unmarshal(raw, &t) == nil && t != "" && !strings.HasPrefix(t, prefix) {
			p["title"], _ = json.Marshal(prefix + t)
		}
	}
	if raw, ok := p["options"]; ok {
		if out, ok := markOptions(raw); ok {
			p["options"] = out
		}
	}
	return json.Marshal(p)
}

// prefixTitle puts prefix before the object's title, when it has one.
func prefixTitle(raw json.RawMessage, prefix string) (json.RawMessage, bool) {
	var tc map[string]json.RawMessage
	if json.Unmarshal(raw, &tc) != nil {
		return nil, false
	}
	var t string
	if json.Unmarshal(tc["title"], &t) != nil || t == "" || strings.HasPrefix(t, prefix) {
		return nil, false
	}
	tc["title"], _ = json.Marshal(prefix + t)
	out, err := json.Marshal(tc)
	return out, err == nil
}

// markOptions ends every allowing option's name with the mark.
func markOptions(raw json.RawMessage) (json.RawMessage, bool) {
	var opts []map[string]json.RawMessage
	if json.Unmarshal(raw, &opts) != nil {
		return nil, false
	}
	changed := false
	for _, o := range opts {
		var kind, name string
		json.Unmarshal(o["kind"], &kind)
		if !strings.HasPrefix(kind, "allow") || json.Unmarshal(o["name"], &name) != nil || strings.HasSuffix(name, uncontainedMark) {
			continue
		}
		o["name"], _ = json.Marshal(name + uncontainedMark)
		changed = true
	}
	if !changed {
		return nil, false
	}
	out, err := json.Marshal(opts)
	return out, err == nil
}
