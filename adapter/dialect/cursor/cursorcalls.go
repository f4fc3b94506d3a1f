package cursor

import (
	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/relay"
)

// Which session a Cursor request belongs to: Cursor's params carry no
// sessionId, so the dialect remembers the session of each tool call the
// agent announces.

// noteToolCall remembers the session of a tool call Cursor starts. The
// update's kind keeps the many other updates (message chunks) undecoded.
func (d *Dialect) noteToolCall(m *relay.Message) {
	if !m.IsUpdate("tool_call") {
		return
	}
	var p struct {
		SessionID string `json:"sessionId"`
		Update    struct {
			SessionUpdate string `json:"sessionUpdate"`
			ToolCallID    string `json:"toolCallId"`
		} `json:"update"`
	}
	if m.Params(&p) != nil || p.Update.SessionUpdate != "tool_call" || p.Update.ToolCallID == "" || p.SessionID == "" {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.calls == nil {
		d.calls = map[string]string{}
	}
	if _, seen := d.calls[p.Update.ToolCallID]; !seen {
		d.order = append(d.order, p.Update.ToolCallID)
	}
	d.calls[p.Update.ToolCallID] = p.SessionID
	if len(d.order) > cursorMaxCalls {
		delete(d.calls, d.order[0])
		d.order = d.order[1:]
	}
}

// scope is the session a request of tool call id belongs to, and the tool
// call to show it on: Cursor's own when the client saw it announced, else
// none (askbridge then shows a tool call of its own).
func (d *Dialect) scope(h dialect.Host, id string) (session, toolCall string) {
	d.mu.Lock()
	s, ok := d.calls[id]
	d.mu.Unlock()
	if ok {
		return s, id
	}
	return h.ActiveSession(""), ""
}
