package approvals

import (
	"encoding/json"
	"sync"

	"github.com/askbridge/askbridge/adapter/relay"
)

// toolCalls remembers what the agent said of its tool calls in tool_call and
// tool_call_update notifications, merged field by field, so that a
// permission request whose toolCall is only {toolCallId} can still show
// what will run. Finished calls are forgotten, and at most maxToolCalls are
// kept (the oldest go first).
type toolCalls struct {
	mu    sync.Mutex
	calls map[string]map[string]json.RawMessage // session + "\x00" + id -> fields
	order []string
}

const maxToolCalls = 256

// note merges one session/update's tool call fields.
func (tc *toolCalls) note(m *relay.Message) {
	var p struct {
		SessionID string                     `json:"sessionId"`
		Update    map[string]json.RawMessage `json:"update"`
	}
	if m.Params(&p) != nil || p.Update == nil {
		return
	}
	var kind, id, status string
	json.Unmarshal(p.Update["sessionUpdate"], &kind)
	if kind != "tool_call" && kind != "tool_call_update" {
		return
	}
	json.Unmarshal(p.Update["toolCallId"], &id)
	json.Unmarshal(p.Update["status"], &status)
	key := p.SessionID + "\x00" + id
	tc.mu.Lock()
	defer tc.mu.Unlock()
	if status == "completed" || status == "failed" {
		delete(tc.calls, key)
		return
	}
	if tc.calls == nil {
		tc.calls = map[string]map[string]json.RawMessage{}
	}
	fields, ok := tc.calls[key]
	if !ok {
		fields = map[string]json.RawMessage{}
		tc.calls[key] = fields
		tc.order = append(tc.order, key)
		for len(tc.order) > maxToolCalls {
			delete(tc.calls, tc.order[0])
			tc.order = tc.order[1:]
		}
	}
	for k, v := range p.Update {
		if k != "sessionUpdate" {
			fields[k] = v
		}
	}
}

// merged is the tool call as known: what the notifications said, with the
// request's own fields over it.
func (tc *toolCalls) merged(session string, call map[string]json.RawMessage) json.RawMessage {
	var id string
	json.Unmarshal(call["toolCallId"], &id)
	out := map[string]json.RawMessage{}
	tc.mu.Lock()
	for k, v := range tc.calls[session+"\x00"+id] {
		out[k] = v
	}
	tc.mu.Unlock()
	for k, v := range call {
		out[k] = v
	}
	b, _ := json.Marshal(out)
	return b
}
