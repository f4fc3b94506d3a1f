package relay

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The kind is params.update.sessionUpdate and nothing that only looks like
// it: a member of that name elsewhere (in a tool call's input, in the
// text), before or after the real one, is not read as the kind.
func TestUpdateKindIsTheUpdatesOwnMember(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}`, "agent_message_chunk"},
		{`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"rawInput":{"sessionUpdate":"current_mode_update"},"sessionUpdate":"tool_call"}}}`, "tool_call"},
		{`{"method":"session/update","params":{"_meta":{"update":{"sessionUpdate":"subagent_update"}},"update":{"content":{"text":"\"sessionUpdate\":\"x\""},"sessionUpdate":"agent_message_chunk"}}}`, "agent_message_chunk"},
		{` { "params" : { "update" : { "session\u0055pdate" : "tool_\u0063all" } } } `, "tool_call"},
		{`{"params":{"update":{"sessionUpdate":7}}}`, ""},
		{`{"params":{"update":"sessionUpdate"}}`, ""},
		{`{"params":{"sessionUpdate":"tool_call"}}`, ""},
		{`{"params":{"update":{"sessionUpdate":"tool_call`, ""},
		{`[]`, ""},
		{`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"a\",\"update\":{\"sessionUpdate\":\"plan","update":{"sessionUpdate":"tool_call"}}}`, "tool_call"},
		{`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool\u005fcall"}}}`, "tool_call"},
	} {
		m := &Message{Raw: []byte(c.line)}
		assert.Equal(t, c.want, string(m.UpdateKind()), c.line)
		assert.False(t, m.IsUpdate("current_mode_update"), c.line)
	}
}

// The session comes with the kind where the line starts as agents write
// it, and is nil (the caller's to find) where it does not.
func TestUpdateSessionIsReadWithTheKind(t *testing.T) {
	for line, want := range map[string]string{
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"plan"}}}`:            "s1",
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s\"1","update":{"sessionUpdate":"plan"}}}`:          "",
		`{"method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"plan"}}}`:                            "",
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","_meta":{},"update":{"sessionUpdate":"plan"}}}`: "",
	} {
		m := &Message{Raw: []byte(line)}
		assert.Equal(t, "plan", string(m.UpdateKind()), line)
		assert.Equal(t, want, string(m.UpdateSession()), line)
	}
}

// A hook that replaces the line has the kind read again from the new one,
// and a clone reads its own.
func TestUpdateKindFollowsAReplacedLine(t *testing.T) {
	m := &Message{Raw: []byte(`{"params":{"update":{"sessionUpdate":"plan"}}}`)}
	v := chain([]Interceptor{
		func(m *Message) Verdict {
			assert.True(t, m.IsUpdate("plan"))
			return Verdict{Replace: []byte(`{"params":{"update":{"sessionUpdate":"tool_call"}}}`)}
		},
		func(m *Message) Verdict { assert.True(t, m.IsUpdate("tool_call")); return Pass },
	}, m)
	assert.NotNil(t, v.Replace)
	c := m.Clone()
	m.Raw[len(`{"params":{"update":{"sessionUpdate":"`)] = 'X'
	assert.True(t, c.IsUpdate("tool_call"))
}

// BenchmarkUpdateKind is what reading a message chunk's kind costs, once
// for all the hooks of session/update.
func BenchmarkUpdateKind(b *testing.B) {
	line := []byte(fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_0123456789","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":%q}}}}`, strings.Repeat("The quick brown fox jumps over the lazy dog. ", 20)))
	for b.Loop() {
		if k, _ := updateKind(line); k == nil {
			b.Fatal("no kind")
		}
	}
}
