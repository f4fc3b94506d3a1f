package relay

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A hook that wants some update kinds is asked only for those, in the
// order the hooks were added among those that want every kind; a kind no
// hook names, or a message with no kind, goes through the others alone.
func TestUpdateHooksAreAskedForTheirKindsOnly(t *testing.T) {
	hooks := map[string]*hookSet{}
	var saw []string
	mk := func(name string) Interceptor {
		return func(*Message) Verdict { saw = append(saw, name); return Pass }
	}
	addHook(hooks, UpdateMethod, mk("all1"), nil)
	addHook(hooks, UpdateMethod, mk("calls"), []string{"tool_call", "tool_call_update"})
	addHook(hooks, UpdateMethod, mk("all2"), nil)
	addHook(hooks, UpdateMethod, mk("chunks"), []string{"agent_message_chunk"})
	addHook(hooks, UpdateMethod, mk("call"), []string{"tool_call"})
	hs := hooks[UpdateMethod]
	for kind, want := range map[string][]string{
		"tool_call":           {"all1", "calls", "all2", "call"},
		"tool_call_update":    {"all1", "calls", "all2"},
		"agent_message_chunk": {"all1", "all2", "chunks"},
		"plan":                {"all1", "all2"},
		"":                    {"all1", "all2"},
	} {
		saw = nil
		line := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{}}}`
		if kind != "" {
			line = fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":%q}}}`, kind)
		}
		chain(hs.chainOf(&Message{Raw: []byte(line)}), &Message{Raw: []byte(line)})
		assert.Equal(t, want, saw, kind)
	}
}

// Without a hook that names kinds, the chain is every hook, the kind
// unread.
func TestHooksWithoutKindsReadNoKind(t *testing.T) {
	hooks := map[string]*hookSet{}
	addHook(hooks, "x", func(*Message) Verdict { return Pass }, nil)
	m := &Message{Raw: []byte(`{"method":"x"}`)}
	assert.Len(t, hooks["x"].chainOf(m), 1)
	assert.False(t, m.kindRead)
}
