package cursor

import (
	"bytes"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/relay"
)

// Which session a Cursor request belongs to: Cursor's params carry no
// sessionId, so the dialect remembers the session of each tool call the
// agent announces.

// noteToolCall remembers the session of a tool call Cursor starts. The
// byte test keeps the many other updates (message chunks) undecoded.
func (d *Dialect) noteToolCall(m *relay.Message) {
	if !startsToolCall(m.Raw) {
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

// startsToolCall is a byte test for `"sessionUpdate":"tool_call"`: the
// discriminator comes early in an update, so finding it is quick, where a
// search for the value alone would read every message chunk to its end.
func startsToolCall(raw []byte) bool {
	i := indexSessionUpdate(raw)
	if i < 0 {
		return false
	}
	rest, ok := bytes.CutPrefix(skipSpace(raw[i+len(sessionUpdateKey):]), []byte(":"))
	if !ok {
		return false
	}
	return bytes.HasPrefix(skipSpace(rest), []byte(`"tool_call"`))
}

// skipSpace is b past JSON whitespace (bytes.TrimLeft would build its
// cutset's table on every notification).
func skipSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\r' || b[0] == '\n') {
		b = b[1:]
	}
	return b
}

var sessionUpdateKey = []byte(`"sessionUpdate"`)

// indexSessionUpdate finds the key by its capital U, a byte JSON keys and
// most text seldom have, which IndexByte finds fast; bytes.Index keeps
// tripping over the quotes a JSON line is full of.
func indexSessionUpdate(raw []byte) int {
	const at = 8 // the U in "sessionUpdate"
	for off := 0; ; {
		j := bytes.IndexByte(raw[off:], 'U')
		if j < 0 {
			return -1
		}
		j += off
		if j >= at && bytes.HasPrefix(raw[j-at:], sessionUpdateKey) {
			return j - at
		}
		off = j + 1
	}
}
