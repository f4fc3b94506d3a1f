package relay

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

func TestHasMemberFindsAMemberAsWritten(t *testing.T) {
	for line, want := range map[string]bool{
		`{"params":{"update":{"sessionUpdate":"subagent_update","sessionId":"c"}}}`:                        true,
		`{"params":{"update":{"content":{"text":"x"},"sessionUpdate" :` + "\n\t" + ` "subagent_update"}}}`: true,
		`{"params":{"update":{"sessionUpdate":"subagent_update_2"}}}`:                                      false,
		`{"params":{"update":{"sessionUpdate":"agent_message_chunk","text":"subagent_update"}}}`:           false,
		`{"params":{"update":{"xsessionUpdate":"subagent_update"}}}`:                                       false,
		`{"params":{"update":{"sessionUpdates":"subagent_update"}}}`:                                       false,
		`{"params":{"update":{"sessionUpdate","subagent_update"}}}`:                                        false,
		`sessionUpdate":"subagent_update"`:                                                                 false,
		`{"params":{"update":{"sessionUpdate":`:                                                            false,
		`{"params":{"update":{"sessionUpdate"`:                                                             false,
		// In a key with an escaped quote too: a yes is for the hook to check.
		`{"x\\"sessionUpdate":"subagent_update"}`: true,
	} {
		assert.Equal(t, want, HasMember([]byte(line), "sessionUpdate", `"subagent_update"`), line)
	}
	assert.True(t, HasMember([]byte(`{"sessionUpdate":"tool_call_update"}`), "sessionUpdate", `"tool_call`))
	assert.True(t, HasMember([]byte(`{"update":{"kind":"x"}}`), "update", `{`))
	assert.True(t, HasMember([]byte(`{"id":7}`), "id", `7`), "a key of lower-case letters only")
	assert.False(t, HasMember([]byte(`{"":1}`), "", `1`))
}

// HasMember says what a regular expression for the member says, on any
// bytes.
func FuzzHasMember(f *testing.F) {
	f.Add([]byte(`{"params":{"update":{"sessionUpdate":"subagent_update"}}}`), "sessionUpdate", `"subagent_update"`)
	f.Add([]byte(`{"a":{"sessionUpdate" : "tool_call_update"}}`), "sessionUpdate", `"tool_call`)
	f.Add([]byte(`{"id":1,"id" :2}`), "id", `2`)
	f.Fuzz(func(t *testing.T, line []byte, key, value string) {
		// The expression cannot hold invalid UTF-8, and reads invalid
		// UTF-8 in line as U+FFFD.
		if key == "" || !utf8.ValidString(key) || !utf8.ValidString(value) || strings.ContainsRune(key+value, utf8.RuneError) {
			return
		}
		re := regexp.MustCompile(`"` + regexp.QuoteMeta(key) + `"[ \t\r\n]*:[ \t\r\n]*` + regexp.QuoteMeta(value))
		if got, want := HasMember(line, key, value), re.Match(line); got != want {
			t.Fatalf("HasMember(%q, %q, %q) = %v, the expression says %v", line, key, value, got, want)
		}
	})
}

// BenchmarkHasMemberOfAChunk is what a hook wanting subagent_update pays
// for a message chunk: the search of the whole line it replaced, then
// HasMember.
func BenchmarkHasMemberOfAChunk(b *testing.B) {
	line := []byte(fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_0123456789","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":%q}}}}`,
		strings.Repeat("The quick brown fox jumps over the lazy dog. ", 20)))
	b.Run("contains", func(b *testing.B) {
		for b.Loop() {
			if bytes.Contains(line, []byte("subagent_update")) {
				b.Fatal("found")
			}
		}
	})
	b.Run("hasmember", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if HasMember(line, "sessionUpdate", `"subagent_update"`) {
				b.Fatal("found")
			}
		}
	})
}
